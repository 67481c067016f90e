package session_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
)

// env is one open store with its Manager, over a database file in t.TempDir().
type env struct {
	path  string
	store *sqlite.Store
	mgr   *session.Manager
}

// newEnv opens a fresh store in a temporary directory.
func newEnv(t testing.TB) *env {
	t.Helper()
	return openEnv(t, filepath.Join(t.TempDir(), "sessions.db"))
}

// openEnv opens the store at path; the Manager (and so the store) is closed at cleanup.
func openEnv(t testing.TB, path string) *env {
	t.Helper()
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatalf("sqlite.Open(%s): %v", path, err)
	}
	m := session.NewManager(st)
	t.Cleanup(func() { m.Close() })
	return &env{path: path, store: st, mgr: m}
}

// reopen closes the Manager and its store, as a process exit would, and opens the same
// file again.
func (e *env) reopen(t *testing.T) *env {
	t.Helper()
	if err := e.mgr.Close(); err != nil {
		t.Fatalf("Manager.Close: %v", err)
	}
	return openEnv(t, e.path)
}

func (e *env) create(t testing.TB) *session.Session {
	t.Helper()
	s, err := e.mgr.Create(session.CreateOptions{ProjectPath: "/proj", Provider: "anthropic", Model: "claude-test"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return s
}

func (e *env) open(t *testing.T, id string) *session.Session {
	t.Helper()
	s, err := e.mgr.Open(id)
	if err != nil {
		t.Fatalf("Open(%s): %v", id, err)
	}
	return s
}

// Chunk constructors, so a stream reads like the stream.
func start(id string) session.Chunk {
	return session.Chunk{Kind: session.ChunkMessageStart, ID: id, Model: "claude-test"}
}
func text(s string) session.Chunk     { return session.Chunk{Kind: session.ChunkText, Text: s} }
func thinking(s string) session.Chunk { return session.Chunk{Kind: session.ChunkThinking, Text: s} }
func signature(s string) session.Chunk {
	return session.Chunk{Kind: session.ChunkSignature, Text: s}
}
func toolUse(id, name, input string) session.Chunk {
	return session.Chunk{Kind: session.ChunkToolUse, ID: id, Name: name, JSON: []byte(input)}
}
func toolUseStart(id, name string) session.Chunk {
	return session.Chunk{Kind: session.ChunkToolUseStart, ID: id, Name: name}
}
func toolUseDelta(s string) session.Chunk {
	return session.Chunk{Kind: session.ChunkToolUseDelta, Text: s}
}
func toolResult(id, content string) session.Chunk {
	return session.Chunk{Kind: session.ChunkToolResult, ToolUseID: id, JSON: []byte(content)}
}
func done(stop, usage string) session.Chunk {
	c := session.Chunk{Kind: session.ChunkDone, StopReason: stop}
	if usage != "" {
		c.Usage = []byte(usage)
	}
	return c
}

// feed ingests chunks, failing the test on the first error.
func feed(t *testing.T, s *session.Session, chunks ...session.Chunk) {
	t.Helper()
	for i, c := range chunks {
		if err := s.Ingest(c); err != nil {
			t.Fatalf("Ingest chunk %d (%s): %v", i, c.Kind, err)
		}
	}
}

func prompt(t *testing.T, s *session.Session, text string) map[string]any {
	t.Helper()
	raw, err := s.AppendUserMessage(mustMarshal(t, text))
	if err != nil {
		t.Fatalf("AppendUserMessage(%q): %v", text, err)
	}
	return decodeObject(t, raw)
}

// messages returns Messages(false) decoded.
func messages(t *testing.T, s *session.Session) []map[string]any {
	t.Helper()
	return decodeList(t, s, false)
}

// envelopes returns Messages(true) decoded.
func envelopes(t *testing.T, s *session.Session) []map[string]any {
	t.Helper()
	return decodeList(t, s, true)
}

func decodeList(t *testing.T, s *session.Session, withEnvelope bool) []map[string]any {
	t.Helper()
	raw, err := s.Messages(withEnvelope)
	if err != nil {
		t.Fatalf("Messages(%v): %v", withEnvelope, err)
	}
	var out []map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("Messages(%v) is not a JSON array of objects: %v\n%s", withEnvelope, err, raw)
	}
	return out
}

// content returns the content blocks of an API message.
func content(t *testing.T, msg map[string]any) []map[string]any {
	t.Helper()
	list, ok := msg["content"].([]any)
	if !ok {
		t.Fatalf("message has no content array: %v", msg)
	}
	out := make([]map[string]any, len(list))
	for i, b := range list {
		if out[i], ok = b.(map[string]any); !ok {
			t.Fatalf("content[%d] is not an object: %v", i, b)
		}
	}
	return out
}

func decodeObject(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, raw)
	}
	return m
}

// decode parses JSON text written in a test into the generic form Messages decodes to.
func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %q: %v", s, err)
	}
	return v
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// must returns v, panicking on err; for calls whose error a test does not examine.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
