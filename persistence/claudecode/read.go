package claudecode

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// Provider is the provider of the sessions read from Claude Code transcripts.
const Provider = "anthropic"

// Transcript is a Claude Code transcript read into records.
type Transcript struct {
	transcript.File
	// AgentCalls maps the subagents this transcript ran to the tool calls that ran them,
	// for reading their own transcripts.
	AgentCalls map[string]string
}

// line is one record of the file, decoded one level deep.
type line struct {
	number int
	raw    []byte
	fields map[string]json.RawMessage
}

// Read reads the Claude Code transcript r, named path in what it reports. agentCalls
// (from the parent's Transcript, or nil) links a subagent transcript's records to the
// tool call that ran them. progress, unless nil, is called with the bytes read so far.
// A line that is not a record is reported in Skipped and left out; everything else is
// read.
func Read(r io.Reader, path string, agentCalls map[string]string, progress func(int64)) (*Transcript, error) {
	return readPart(r, path, "", false, agentCalls, progress)
}

// ReadPart reads r as Read does, as the part of a transcript kept under subpath: "" for
// the main transcript, or a subagent's (the Claude Agent SDK's SessionKey.subpath, such as
// "subagents/agent-<id>"). Each record keeps its part in its source, for WritePart and
// Parts. A line whose message cannot be read is kept, verbatim, as a record that is not a
// message: only a line that is not a JSON object with a string "type" is skipped.
func ReadPart(r io.Reader, path, subpath string, agentCalls map[string]string) (*Transcript, error) {
	return readPart(r, path, subpath, true, agentCalls, nil)
}

func readPart(r io.Reader, path, subpath string, keepUnreadable bool, agentCalls map[string]string, progress func(int64)) (*Transcript, error) {
	t := &Transcript{File: transcript.File{Path: path}, AgentCalls: map[string]string{}}
	lines, err := t.decodeLines(r, progress)
	if err != nil {
		return nil, err
	}
	sessionID := sessionOf(lines, path)
	occurrences := transcript.Occurrences{}
	conv := converter{sessionID: sessionID, subpath: subpath, keepUnreadable: keepUnreadable, taskPrompts: map[string]string{}, lastCwd: firstCwd(lines)}
	for _, l := range lines {
		rec, err := conv.record(l, occurrences)
		if err != nil {
			t.skip(l.number, err.Error())
			continue
		}
		t.Records = append(t.Records, rec)
	}
	conv.link(t.Records, agentCalls)
	for agent, call := range conv.agentCalls {
		t.AgentCalls[agent] = call
	}
	first, last := transcript.FillTimes(t.Records, time.Now().UTC())
	t.Target = conv.target(first, last)
	return t, nil
}

// decodeLines reads every line, leaving out (and reporting) those that are not a JSON
// object with a string "type".
func (t *Transcript) decodeLines(r io.Reader, progress func(int64)) ([]line, error) {
	var lines []line
	err := t.eachLine(r, progress, func(l line) error {
		lines = append(lines, l)
		return nil
	})
	return lines, err
}

// eachLine decodes each line of r, in order, and calls fn with it; a line that is not a
// JSON object with a string "type" is put in t.Skipped instead. It stops at fn's first
// error.
func (t *Transcript) eachLine(r io.Reader, progress func(int64), fn func(line) error) error {
	in := transcript.NewLines(r, progress)
	for {
		raw, n, ok, err := in.Next()
		if err != nil {
			return fmt.Errorf("reading %s: %w", t.Path, err)
		}
		if !ok {
			return nil
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
			t.skip(n, "not a JSON object")
			continue
		}
		if _, ok := stringField(fields, "type"); !ok {
			t.skip(n, `no string "type"`)
			continue
		}
		if err := fn(line{number: n, raw: raw, fields: fields}); err != nil {
			return err
		}
	}
}

func (t *Transcript) skip(number int, reason string) {
	t.Skipped = append(t.Skipped, transcript.Skipped{File: t.Path, Line: number, Reason: reason})
}

// sessionOf returns the session a transcript belongs to: the first sessionId it records,
// else the file's name.
func sessionOf(lines []line, path string) string {
	for _, l := range lines {
		if id, ok := stringField(l.fields, "sessionId"); ok && id != "" {
			return id
		}
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// firstCwd returns the first working folder the records name: the folder of the file
// snapshots recorded before any record names one.
func firstCwd(lines []line) string {
	for _, l := range lines {
		if cwd, ok := stringField(l.fields, "cwd"); ok && cwd != "" {
			return cwd
		}
	}
	return ""
}

// target describes the session of the records, which run from first to last: its first
// cwd as the project, the last summary (else the first prompt) as the title, the last
// model.
func (c *converter) target(first, last time.Time) importing.ImportTarget {
	title := c.summary
	if title == "" {
		title = c.firstPrompt
	}
	if title == "" {
		title = c.firstCommand
	}
	return importing.ImportTarget{Info: session.SessionInfo{
		ID: c.sessionID, ProjectPath: c.cwd, Title: session.TitleFrom(title), Provider: Provider,
		Model: c.model, CreatedAt: first, UpdatedAt: last, Status: session.StatusActive,
	}}
}

// stringField returns fields[name] when it is a JSON string.
func stringField(fields map[string]json.RawMessage, name string) (string, bool) {
	raw, ok := fields[name]
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
