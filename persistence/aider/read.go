package aider

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// Read reads the chat history r, named path in what it reports, into one file of records a
// run of aider. The project is the folder the history is in. progress, unless nil, is
// called with the bytes read so far. Text before the first run's start line is read as a
// run of its own.
func Read(r io.Reader, path string, progress func(int64)) ([]*transcript.File, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	rd := &reader{path: path, project: filepath.Dir(abs), starts: transcript.Occurrences{}}
	in := bufio.NewReaderSize(r, 64*1024)
	var read int64
	for {
		line, err := in.ReadString('\n')
		read += int64(len(line))
		if line != "" {
			rd.line(strings.TrimRight(line, "\r\n"))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if progress != nil {
			progress(read)
		}
	}
	if progress != nil {
		progress(read)
	}
	rd.endRun()
	return rd.files, nil
}

// reader splits a history into runs, and each run into messages.
type reader struct {
	path, project string
	starts        transcript.Occurrences
	files         []*transcript.File
	run           *run
	kind          string // the kind of the lines gathered: user, assistant or output
	lines         []string
}

// line reads one line of the history.
func (rd *reader) line(l string) {
	switch {
	case strings.HasPrefix(l, StartPrefix):
		rd.endRun()
		rd.startRun(strings.TrimSpace(strings.TrimPrefix(l, StartPrefix)))
	case strings.HasPrefix(l, "> ") || l == ">": // not ">>>>>>> REPLACE"
		rd.gather("output", strings.TrimPrefix(l[1:], " "))
	case strings.HasPrefix(l, "#### "):
		rd.gather("user", l[5:])
	case l == "####":
		rd.gather("user", "")
	default:
		rd.gather("assistant", l)
	}
}

// gather adds a line to the message being gathered, first ending it when the kind changes.
func (rd *reader) gather(kind, text string) {
	if kind != rd.kind {
		rd.flush()
		rd.kind = kind
	}
	rd.lines = append(rd.lines, strings.TrimSuffix(text, "  ")) // Markdown's line break
}

// flush ends the message being gathered.
func (rd *reader) flush() {
	text := strings.TrimSpace(strings.Join(rd.lines, "\n"))
	kind := rd.kind
	rd.kind, rd.lines = "", nil
	if text == "" {
		return
	}
	if rd.run == nil {
		rd.startRun("")
	}
	rd.run.add(kind, text)
}

func (rd *reader) startRun(started string) {
	id := transcript.SyntheticUUID(rd.project, []byte(started), rd.starts.Next([]byte(started)))
	at, _ := time.ParseInLocation("2006-01-02 15:04:05", started, time.UTC)
	rd.run = &run{chain: transcript.Chain{SessionID: id, Format: Format}, project: rd.project, started: at, startLine: started}
}

func (rd *reader) endRun() {
	rd.flush()
	if rd.run == nil {
		return
	}
	if len(rd.run.chain.Records) > 0 {
		rd.files = append(rd.files, rd.run.file(rd.path))
	}
	rd.run = nil
}

// file is the run read into the records of one session.
func (r *run) file(path string) *transcript.File {
	recs := r.chain.Records
	first, last := transcript.FillTimes(recs, r.started)
	if r.started.IsZero() {
		first, last = transcript.FillTimes(recs, time.Now().UTC())
	}
	return &transcript.File{Path: path, Records: recs, Target: importing.ImportTarget{Info: session.SessionInfo{
		ID: r.chain.SessionID, ProjectPath: r.project, Title: session.TitleFrom(r.title), Provider: r.provider(),
		Model: r.model, CreatedAt: first, UpdatedAt: last, Status: session.StatusActive,
	}}}
}
