package codex

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// line is one record of a rollout.
type line struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// Read reads the Codex rollout r, named path in what it reports. progress, unless nil, is
// called with the bytes read so far. A line that is not a record is reported in Skipped
// and left out; everything else is read.
func Read(r io.Reader, path string, progress func(int64)) (*transcript.File, error) {
	file := &transcript.File{Path: path}
	type raw struct {
		number int
		text   []byte
		line   line
	}
	var lines []raw
	err := eachLine(r, path, file, progress, func(n int, text []byte, l line) error {
		lines = append(lines, raw{n, text, l})
		return nil
	})
	if err != nil {
		return nil, err
	}
	conv := &converter{sessionID: sessionOf(path), occurrences: transcript.Occurrences{}}
	for _, l := range lines {
		conv.noteSession(l.line)
	}
	for _, l := range lines {
		if err := conv.record(l.line, l.text); err != nil {
			file.Skipped = append(file.Skipped, transcript.Skipped{File: path, Line: l.number, Reason: err.Error()})
		}
	}
	file.Records = conv.recs
	first, last := transcript.FillTimes(file.Records, time.Now().UTC())
	file.Target = importing.ImportTarget{Info: session.SessionInfo{
		ID: conv.sessionID, ProjectPath: conv.projectPath, Title: session.TitleFrom(conv.title), Provider: Provider,
		Model: conv.model, CreatedAt: first, UpdatedAt: last, Status: session.StatusActive,
	}}
	return file, nil
}

// eachLine decodes each line of r, in order, and calls fn with its number, its text and
// the record; a line that is not a rollout record is put in file.Skipped instead. It stops
// at fn's first error.
func eachLine(r io.Reader, path string, file *transcript.File, progress func(int64), fn func(n int, text []byte, l line) error) error {
	in := transcript.NewLines(r, progress)
	for {
		text, n, ok, err := in.Next()
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		if !ok {
			return nil
		}
		var l line
		if err := json.Unmarshal(text, &l); err != nil || l.Type == "" {
			file.Skipped = append(file.Skipped, transcript.Skipped{File: path, Line: n, Reason: "not a rollout record (a JSON object with a \"type\")"})
			continue
		}
		if err := fn(n, text, l); err != nil {
			return err
		}
	}
}

// rolloutID finds the session id at the end of a rollout's file name.
var rolloutID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// sessionOf returns the session id a rollout's name ends with, else its name.
func sessionOf(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if id := rolloutID.FindString(name); id != "" {
		return id
	}
	return name
}
