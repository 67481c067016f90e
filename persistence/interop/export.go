package interop

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sessionkeep/sessionkeep/persistence/archive"
	"github.com/sessionkeep/sessionkeep/persistence/claudecode"
	"github.com/sessionkeep/sessionkeep/persistence/markdown"
	"github.com/sessionkeep/sessionkeep/session"
)

// ExportOptions describe an export: its format, and the file to write, or "" for the
// text itself.
type ExportOptions struct {
	Format string
	Path   string
}

// writers are the export formats.
var writers = map[string]func(io.Writer, session.SessionState, session.Scan) error{
	FormatClaudeCode: claudecode.Write,
	FormatJSONL:      archive.WriteJSONL,
	FormatJSON:       archive.WriteJSON,
	FormatMarkdown:   markdown.Write,
}

// Export writes session id in the format asked for: to opts.Path, created or replaced
// whole (mode 0600), or, with no path, into the text it returns.
func Export(mgr *session.Manager, id string, opts ExportOptions) ([]byte, error) {
	write, ok := writers[opts.Format]
	if !ok {
		return nil, fmt.Errorf("%w: format %q: export writes claude-code, jsonl, json or markdown", session.ErrInvalidArgument, opts.Format)
	}
	if opts.Path == "" {
		var buf bytes.Buffer
		err := mgr.Export(id, func(st session.SessionState, scan session.Scan) error { return write(&buf, st, scan) })
		return buf.Bytes(), err
	}
	return nil, writeFile(opts.Path, func(w io.Writer) error {
		return mgr.Export(id, func(st session.SessionState, scan session.Scan) error { return write(w, st, scan) })
	})
}

// writeFile writes path through a temporary file beside it, renamed over it once complete,
// so that a failed export never leaves half a file. The file is readable by its owner only.
func writeFile(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%w: %v", session.ErrFileAccess, err)
	}
	return nil
}
