package claudecode

import (
	"bufio"
	"io"
	"sort"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
)

// WritePart returns a writer of one part of a session's transcript, as ReadPart read it:
// the records read from Claude Code under subpath, each given back field for field, in the
// order they were stored. Records of any other part or source are left out.
func WritePart(subpath string) func(io.Writer, session.SessionState, session.Scan) error {
	return func(w io.Writer, st session.SessionState, scan session.Scan) error {
		bw := bufio.NewWriterSize(w, 64*1024)
		wr := writer{st: st, out: bw, replaced: map[string]string{}}
		err := scan(func(m *session.StoredMessage) error {
			extra, src, err := decodeSource(m)
			if err != nil || src.Format != Format || src.Subpath != subpath {
				return err
			}
			return wr.encode(wr.original(m, &extra, &src))
		})
		if err != nil {
			return err
		}
		return bw.Flush()
	}
}

// Parts returns the subpaths of the parts ReadPart read into a session, sorted; the main
// transcript ("") is not one of them.
func Parts(scan session.Scan) ([]string, error) {
	seen := map[string]bool{}
	err := scan(func(m *session.StoredMessage) error {
		_, src, err := decodeSource(m)
		if err == nil && src.Format == Format && src.Subpath != "" {
			seen[src.Subpath] = true
		}
		return err
	})
	parts := make([]string, 0, len(seen))
	for p := range seen {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	return parts, err
}

// decodeSource decodes a stored record's envelope extra and the source it names.
func decodeSource(m *session.StoredMessage) (extra session.EnvelopeExtra, src source, err error) {
	if len(m.Extra) > 2 {
		if err = json.Unmarshal(m.Extra, &extra); err != nil {
			return extra, src, err
		}
	}
	if len(extra.Source) > 0 {
		err = json.Unmarshal(extra.Source, &src)
	}
	return extra, src, err
}
