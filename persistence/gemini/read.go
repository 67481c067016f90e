package gemini

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// Read reads the Gemini CLI chat file r, named path in what it reports: one JSON
// ConversationRecord, the JSONL of newer versions, or a checkpoint /chat save wrote. progress, unless nil, is called with
// the bytes read so far. A line or message that cannot be read is reported in Skipped and
// left out; everything else is read.
func Read(r io.Reader, path string, progress func(int64)) (*transcript.File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if progress != nil {
		progress(int64(len(data)))
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
		return readCheckpoint(trimmed, path)
	}
	file := &transcript.File{Path: path}
	var conv conversation
	if json.Unmarshal(bytes.TrimSpace(data), &conv) != nil || conv.Messages == nil {
		conv = readLines(data, file)
	}
	id := conv.SessionID
	if id == "" {
		id = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	c := &converter{chain: transcript.Chain{SessionID: id, Format: Format}}
	if c.cwd = projectRoot(path); c.cwd == "" && len(conv.Directories) > 0 {
		c.cwd = conv.Directories[0]
	}
	for i, raw := range conv.Messages {
		if err := c.message(raw, i); err != nil {
			file.Skipped = append(file.Skipped, transcript.Skipped{File: path, Line: i + 1, Reason: err.Error()})
		}
	}
	file.Records = c.chain.Records
	first, last := transcript.FillTimes(file.Records, orNow(transcript.ParseTime(conv.StartTime)))
	title := conv.Summary
	if title == "" {
		title = c.prompt
	}
	file.Target = importing.ImportTarget{Info: session.SessionInfo{
		ID: id, ProjectPath: c.cwd, Title: session.TitleFrom(title), Provider: Provider, Model: c.model,
		CreatedAt: first, UpdatedAt: later(last, transcript.ParseTime(conv.LastUpdated)), Status: session.StatusActive,
	}}
	return file, nil
}

// readLines reads the JSONL form: metadata records ({sessionId, projectHash, …}), message
// records (each with an id; a message written again replaces its earlier version in
// place), {$set: {…}} metadata updates (a $set of messages replaces them all) and
// {$rewindTo: id}, which removes that message and every one after it (all of them when
// the id is not there), as Gemini CLI's loader does.
func readLines(data []byte, file *transcript.File) conversation {
	var conv conversation
	var order []string
	byID := map[string]json.RawMessage{}
	in := transcript.NewLines(bytes.NewReader(data), nil)
	for {
		line, n, ok, _ := in.Next()
		if !ok {
			break
		}
		var head struct {
			ID       *string         `json:"id"`
			RewindTo *string         `json:"$rewindTo"`
			Set      json.RawMessage `json:"$set"`
		}
		if json.Unmarshal(line, &head) != nil {
			file.Skipped = append(file.Skipped, transcript.Skipped{File: file.Path, Line: n, Reason: "not a JSON object"})
			continue
		}
		switch {
		case head.RewindTo != nil:
			order = rewind(order, byID, *head.RewindTo)
		case head.ID != nil:
			if _, seen := byID[*head.ID]; !seen {
				order = append(order, *head.ID)
			}
			byID[*head.ID] = append(json.RawMessage(nil), line...)
		case len(head.Set) > 0 && head.Set[0] == '{':
			json.Unmarshal(head.Set, &conv)
		default:
			json.Unmarshal(line, &conv)
		}
	}
	if len(conv.Messages) > 0 {
		return conv
	}
	conv.Messages = nil
	for _, id := range order {
		conv.Messages = append(conv.Messages, byID[id])
	}
	return conv
}

// rewind removes the message id and every one after it, or all of them when id is not
// there.
func rewind(order []string, byID map[string]json.RawMessage, id string) []string {
	at := 0
	for i, o := range order {
		if o == id {
			at = i
			break
		}
	}
	for _, o := range order[at:] {
		delete(byID, o)
	}
	return order[:at]
}

// projectRoot returns the project a chat file belongs to, as Gemini CLI's project registry
// records it in the file .project_root of the project's folder under ~/.gemini/tmp (the
// chats folder's parent, or its grandparent for a subagent's chat); "" when there is none
// (older versions named the folder by a hash of the path, and kept no path).
func projectRoot(path string) string {
	dir := filepath.Dir(path)
	for range 3 {
		if root, err := os.ReadFile(filepath.Join(dir, ".project_root")); err == nil {
			return strings.TrimSpace(string(root))
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

func orNow(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now().UTC()
	}
	return t
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
