package gemini

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// LogsName is the name of the file where Gemini CLI logs what the user typed
// (~/.gemini/tmp/<project>/logs.json): a JSON array of {sessionId, messageId, timestamp,
// type, message}, the prompts alone, in every version, also of sessions that have no chat
// file (versions before chat recording, and chats removed since).
const LogsName = "logs.json"

// IsLogsFile tells whether path is named as Gemini CLI's prompt log.
func IsLogsFile(path string) bool {
	return filepath.Base(path) == LogsName
}

// logEntry is one entry of logs.json.
type logEntry struct {
	SessionID string `json:"sessionId"`
	MessageID int64  `json:"messageId"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Message   string `json:"message"`
}

// ReadLogs reads Gemini CLI's logs.json r, named path in what it reports, into one file of
// records a session. A session that a chat file in the chats folder beside it names is
// left out: the chat file holds the same prompts and the rest of the conversation, and is
// imported for it. progress, unless nil, is called with the bytes read.
func ReadLogs(r io.Reader, path string, progress func(int64)) ([]*transcript.File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if progress != nil {
		progress(int64(len(data)))
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("%s is not Gemini CLI's logs.json (a JSON array of logged prompts): %v", path, err)
	}
	chatted := chatSessions(filepath.Join(filepath.Dir(path), "chats"))
	cwd := projectRoot(path)
	bySession := map[string]*logSession{}
	var order []*logSession
	var skipped []transcript.Skipped
	for i, raw := range entries {
		var e logEntry
		if json.Unmarshal(raw, &e) != nil || e.SessionID == "" {
			skipped = append(skipped, transcript.Skipped{File: path, Line: i + 1, Reason: "not a logged prompt (an object with a sessionId)"})
			continue
		}
		if chatted[e.SessionID] {
			continue
		}
		s := bySession[e.SessionID]
		if s == nil {
			s = &logSession{chain: transcript.Chain{SessionID: e.SessionID, Format: Format}}
			bySession[e.SessionID] = s
			order = append(order, s)
		}
		s.add(e, cwd)
	}
	var files []*transcript.File
	for _, s := range order {
		files = append(files, s.file(path, cwd))
	}
	if len(skipped) > 0 {
		if len(files) == 0 {
			files = append(files, &transcript.File{Path: path})
		}
		files[0].Skipped = skipped
	}
	return files, nil
}

// logSession gathers the logged prompts of one session.
type logSession struct {
	chain  transcript.Chain
	prompt string
}

// command finds a Gemini CLI command (/clear, /compress, /chat save x, …), which the log
// keeps among the prompts but the model is never sent.
var command = regexp.MustCompile(`^/[A-Za-z][\w-]*(\s|$)`)

// add appends one entry: a user prompt as a user message; a command, or an entry of any
// other type, as a record that is not a message, its text under source.message.
func (s *logSession) add(e logEntry, cwd string) {
	rec := importing.Record{Type: e.Type, CreatedAt: transcript.ParseTime(e.Timestamp), Provider: Provider}
	source := map[string]any{"record": "log", "messageId": e.MessageID}
	if e.Type == "user" && command.MatchString(e.Message) {
		rec.Type = "command"
	}
	if rec.Type == "user" {
		rec.Role, rec.Blocks = "user", []session.RecordBlock{transcript.Text(e.Message)}
		if s.prompt == "" {
			s.prompt = e.Message
		}
	} else {
		source["message"] = e.Message
	}
	s.chain.Add(fmt.Sprintf("log\x00%d\x00%s\x00%s", e.MessageID, e.Type, e.Message), rec, session.EnvelopeExtra{}, source, cwd)
}

// file is the session read into its file of records.
func (s *logSession) file(path, cwd string) *transcript.File {
	recs := s.chain.Records
	first, last := transcript.FillTimes(recs, time.Now().UTC())
	return &transcript.File{Path: path, Records: recs, Target: importing.ImportTarget{Info: session.SessionInfo{
		ID: s.chain.SessionID, ProjectPath: cwd, Title: session.TitleFrom(s.prompt), Provider: Provider,
		CreatedAt: first, UpdatedAt: last, Status: session.StatusActive,
	}}}
}

// sessionIDField finds a chat file's sessionId, the first member of its metadata.
var sessionIDField = regexp.MustCompile(`"sessionId"\s*:\s*"([^"]+)"`)

// chatSessions returns the sessions the chat files in dir name, read from each file's
// first 4 KB (where its metadata is).
func chatSessions(dir string) map[string]bool {
	ids := map[string]bool{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, "session-") || !(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl")) {
			continue
		}
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		head := make([]byte, 4096)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if m := sessionIDField.FindSubmatch(head[:n]); m != nil {
			ids[string(m[1])] = true
		}
	}
	return ids
}
