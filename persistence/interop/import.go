package interop

import (
	"fmt"
	"os"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/aider"
	"github.com/sessionkeep/sessionkeep/persistence/archive"
	"github.com/sessionkeep/sessionkeep/persistence/claudecode"
	"github.com/sessionkeep/sessionkeep/persistence/codex"
	"github.com/sessionkeep/sessionkeep/persistence/gemini"
	"github.com/sessionkeep/sessionkeep/persistence/opencode"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// ImportOptions describe an import. Format is one of the import formats, or "" to tell
// each file's format from its first record. Progress, unless nil, is called as the import
// goes (at most every ProgressInterval, and after each file), from the importing goroutine.
type ImportOptions struct {
	Format   string
	Progress func(Progress)
	// Parsers is how many files are read side by side, ahead of the one being stored;
	// 0 means one per CPU. Records are stored in the order the files were found whatever
	// it is, so the result is the same.
	Parsers int
	// FileHistoryDir is where Claude Code keeps file backups (~/.claude/file-history, which
	// holds a folder per session). Backups are looked for there first, then beside the
	// transcript's Claude Code home when it is in one (<home>/projects/<project>/).
	FileHistoryDir string
}

// ProgressInterval is the least time between two progress reports within a file.
const ProgressInterval = 50 * time.Millisecond

// Progress is how far an import has come: what a progress bar needs.
type Progress struct {
	File       string `json:"file"` // the file being read
	FilesDone  int    `json:"filesDone"`
	FilesTotal int    `json:"filesTotal"`
	BytesDone  int64  `json:"bytesDone"`
	BytesTotal int64  `json:"bytesTotal"`
	Records    int    `json:"records"`  // records added so far
	Existing   int    `json:"existing"` // records found already stored so far
	Skipped    int    `json:"skipped"`  // lines left out so far
}

// ImportResult is what an import did.
type ImportResult struct {
	Sessions []string             `json:"sessions"` // the sessions the files hold, created or not
	Records  int                  `json:"records"`  // records added
	Existing int                  `json:"existing"` // records the store already held, left as they were
	Skipped  []transcript.Skipped `json:"skipped"`  // lines (or, with line 0, whole files) left out
}

// Import reads the transcripts at path, a file or a folder, into the sessions of mgr. A
// Claude Code transcript brings its subagent transcripts from beside it. A damaged line is
// reported in Skipped and left out, and so is a file that cannot be read or is not of the
// format asked for; everything else is imported. Records are matched by uuid, so importing
// the same files again adds nothing. While it runs the garbage collector lets the heap grow
// further than by default (gc.go).
func Import(mgr *session.Manager, path string, opts ImportOptions) (ImportResult, error) {
	if opts.Format != "" && !importFormats[opts.Format] {
		return ImportResult{}, fmt.Errorf("%w: format %q: import reads claude-code, codex, gemini, opencode, aider, jsonl or json", session.ErrInvalidArgument, opts.Format)
	}
	files, err := findFiles(path, opts.Format)
	if err != nil {
		return ImportResult{}, err
	}
	defer RoomForGC()()
	run := &importRun{mgr: mgr, opts: opts, result: ImportResult{Sessions: []string{}, Skipped: []transcript.Skipped{}}, seen: map[string]bool{}}
	for _, f := range files {
		run.progress.FilesTotal += 1 + len(f.subagents)
		run.progress.BytesTotal += f.size
		for _, sub := range f.subagents {
			run.progress.BytesTotal += sub.size
		}
	}
	if err := run.parseAndStore(files); err != nil {
		return run.result, err
	}
	run.report(true)
	return run.result, nil
}

// importRun is one Import under way.
type importRun struct {
	mgr      *session.Manager
	opts     ImportOptions
	result   ImportResult
	seen     map[string]bool // sessions already in result
	progress Progress
	bytesIn  int64 // bytes of the files done
	reported time.Time
}

// parse reads one file into records; for a Claude Code transcript it also returns the
// subagents it ran, by the tool calls that ran them, for its subagent transcripts. It
// touches no store, so files are parsed side by side (parallel.go); pf.read follows the
// bytes read, for progress.
func (run *importRun) parse(pf *parsedFile, agentCalls map[string]string) (calls map[string]string) {
	src := pf.src
	format := detect(src.path)
	if run.opts.Format != "" && format != run.opts.Format && !(format == "" && run.opts.Format == FormatClaudeCode) {
		pf.skip = fmt.Sprintf("not a %s file (it reads as %s)", run.opts.Format, orUnknown(format))
		return nil
	}
	if format == FormatOpenCode {
		run.parseOpenCode(pf)
		return nil
	}
	if streams(pf, format, agentCalls) {
		pf.stream = orClaudeCode(format)
		return nil
	}
	f, err := os.Open(src.path)
	if err != nil {
		pf.skip = err.Error()
		return nil
	}
	defer f.Close()
	onBytes := func(n int64) { pf.read.Store(n) }
	switch format {
	case FormatCodex:
		pf.file, err = codex.Read(f, src.path, onBytes)
	case FormatJSONL:
		pf.file, err = archive.ReadJSONL(f, src.path, onBytes)
	case FormatJSON:
		pf.file, err = archive.ReadJSON(f, src.path, onBytes)
	case FormatGemini:
		if !gemini.IsLogsFile(src.path) {
			pf.file, err = gemini.Read(f, src.path, onBytes)
			break
		}
		var files []*transcript.File
		if files, err = gemini.ReadLogs(f, src.path, onBytes); err == nil {
			pf.file, pf.more = &transcript.File{Path: src.path}, files
		}
	case FormatAider:
		var files []*transcript.File
		if files, err = aider.Read(f, src.path, onBytes); err == nil {
			pf.file, pf.more = &transcript.File{Path: src.path}, files
		}
	default:
		var t *claudecode.Transcript
		if t, err = claudecode.Read(f, src.path, agentCalls, onBytes); err == nil {
			t.LoadBackups(run.opts.FileHistoryDir, claudecode.FileHistoryDir(src.path))
			pf.file, calls = &t.File, t.AgentCalls
		}
	}
	if err != nil {
		pf.file, pf.skip = nil, err.Error()
	}
	return calls
}

// parseOpenCode reads OpenCode's database (every session in it), a session file of its
// JSON storage, or a session `opencode export` printed, which are not read as a stream.
func (run *importRun) parseOpenCode(pf *parsedFile) {
	var err error
	if opencode.IsSessionFile(pf.src.path) {
		pf.file, err = opencode.ReadSessionFile(pf.src.path)
	} else if !isSQLite(pf.src.path) {
		pf.file, err = readExport(pf.src.path)
	} else if pf.more, err = opencode.ReadDatabase(pf.src.path); err == nil {
		pf.file = &transcript.File{Path: pf.src.path}
	}
	if err != nil {
		pf.file, pf.more, pf.skip = nil, nil, err.Error()
	}
	pf.read.Store(pf.src.size)
}

// readExport reads the session `opencode export` printed to the file at path.
func readExport(path string) (*transcript.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return opencode.ReadExport(f, path)
}

// file stores one parsed file, in the order the files were found, reporting progress
// while it waits for its parser.
func (run *importRun) file(pf *parsedFile) error {
	run.progress.File = pf.src.path
	defer func() {
		run.bytesIn += pf.src.size
		run.progress.FilesDone++
		run.progress.BytesDone = run.bytesIn
		run.report(true)
	}()
	run.await(pf)
	if pf.skip != "" {
		run.skipFile(pf.src.path, pf.skip)
		return nil
	}
	if pf.stream != "" {
		return run.streamFile(pf)
	}
	if err := run.store(pf.file); err != nil {
		return err
	}
	for _, more := range pf.more {
		if err := run.store(more); err != nil {
			return err
		}
	}
	return nil
}

// store hands a file's records to the session manager.
func (run *importRun) store(file *transcript.File) error {
	run.result.Skipped = append(run.result.Skipped, file.Skipped...)
	run.progress.Skipped += len(file.Skipped)
	if len(file.Records) == 0 {
		return nil
	}
	count, err := importing.Import(run.mgr, file.Target, file.Records)
	if err != nil {
		return err
	}
	run.counted(file.Target.Info.ID, count)
	return nil
}

// counted adds what importing records into session id did to the result.
func (run *importRun) counted(id string, count importing.ImportCount) {
	if !run.seen[id] {
		run.seen[id] = true
		run.result.Sessions = append(run.result.Sessions, id)
	}
	run.result.Records += count.Added
	run.result.Existing += count.Existing
	run.progress.Records, run.progress.Existing = run.result.Records, run.result.Existing
}

func (run *importRun) skipFile(path, reason string) {
	run.result.Skipped = append(run.result.Skipped, transcript.Skipped{File: path, Line: 0, Reason: reason})
	run.progress.Skipped++
}

// report calls the progress callback, at most every ProgressInterval unless now is set.
func (run *importRun) report(now bool) {
	if run.opts.Progress == nil || (!now && time.Since(run.reported) < ProgressInterval) {
		return
	}
	run.reported = time.Now()
	run.opts.Progress(run.progress)
}

// orClaudeCode returns format, or claude-code for a file whose format its first record
// does not tell (read as Claude Code's).
func orClaudeCode(format string) string {
	if format == "" {
		return FormatClaudeCode
	}
	return format
}

func orUnknown(format string) string {
	if format == "" {
		return "nothing known"
	}
	return format
}
