package opencode

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The tables of OpenCode's database, as its migrations create them (the columns this
// reader needs, and one it does not, as later versions add).
const schema = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL,
  title text NOT NULL, version text NOT NULL, share_url text, time_created integer NOT NULL, time_updated integer NOT NULL, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`

// fixtureMessage is a message and its parts as OpenCode stores them.
type fixtureMessage struct {
	id    string
	info  map[string]any
	parts []map[string]any
}

// conversation is one session's messages, as OpenCode writes them: a prompt with an image,
// an answer that reasons, calls two tools (one fails), reads the results and answers, and
// a second answer cut off while a tool ran.
func conversation() []fixtureMessage {
	tokens := func(in, out, reason, read, write int) map[string]any {
		return map[string]any{"input": in, "output": out, "reasoning": reason, "cache": map[string]any{"read": read, "write": write}}
	}
	asst := func(id string, created int64, extra map[string]any) map[string]any {
		m := map[string]any{"role": "assistant", "time": map[string]any{"created": created}, "parentID": "msg_01u", "modelID": "claude-sonnet-4-5",
			"providerID": "anthropic", "mode": "build", "agent": "build", "path": map[string]any{"cwd": "/w/api", "root": "/w/api"}, "cost": 0.01,
			"tokens": tokens(10, 20, 0, 0, 0)}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return []fixtureMessage{
		{"msg_01u", map[string]any{"role": "user", "time": map[string]any{"created": 1767000000000}, "agent": "build",
			"model": map[string]any{"providerID": "anthropic", "modelID": "claude-sonnet-4-5"}}, []map[string]any{
			{"id": "prt_01a", "type": "text", "text": "why does the build fail?"},
			{"id": "prt_01b", "type": "file", "mime": "image/png", "filename": "err.png", "url": "data:image/png;base64,iVBORw0K"},
		}},
		{"msg_02a", asst("msg_02a", 1767000001000, nil), []map[string]any{
			{"id": "prt_02a", "type": "step-start", "snapshot": "abc"},
			{"id": "prt_02b", "type": "reasoning", "text": "Check the log.", "time": map[string]any{"start": 1767000001100, "end": 1767000001200},
				"metadata": map[string]any{"anthropic": map[string]any{"signature": "sig=="}}},
			{"id": "prt_02c", "type": "tool", "callID": "toolu_1", "tool": "bash", "state": map[string]any{"status": "completed",
				"input": map[string]any{"command": "make"}, "output": "error: x", "title": "make", "metadata": map[string]any{"exit": 2},
				"time": map[string]any{"start": 1767000001300, "end": 1767000002000}}},
			{"id": "prt_02d", "type": "tool", "callID": "toolu_2", "tool": "read", "state": map[string]any{"status": "error",
				"input": map[string]any{"filePath": "/nope"}, "error": "file not found", "time": map[string]any{"start": 1767000001300, "end": 1767000001400}}},
			{"id": "prt_02e", "type": "step-finish", "reason": "tool-calls", "cost": 0.01, "tokens": tokens(100, 30, 5, 900, 50)},
			{"id": "prt_02f", "type": "step-start"},
			{"id": "prt_02g", "type": "text", "text": "The build fails on x."},
			{"id": "prt_02h", "type": "step-finish", "reason": "stop", "cost": 0.01, "tokens": tokens(200, 10, 0, 1000, 0)},
			{"id": "prt_02i", "type": "patch", "hash": "def", "files": []string{"/w/api/x.go"}},
		}},
		{"msg_03a", asst("msg_03a", 1767000003000, map[string]any{"error": map[string]any{"name": "MessageAbortedError", "data": map[string]any{"message": "aborted"}}}),
			[]map[string]any{
				{"id": "prt_03a", "type": "tool", "callID": "toolu_3", "tool": "bash", "state": map[string]any{"status": "running",
					"input": map[string]any{"command": "make test"}, "time": map[string]any{"start": 1767000003100}}},
			}},
	}
}

// writeDatabase writes a database as OpenCode keeps it, with one session, and returns its path.
func writeDatabase(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), DatabaseName)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(schema)
	exec(`INSERT INTO session VALUES ('ses_1', 'prj', NULL, 'brave-fox', '/w/api', 'Build failure', '1.2.0', NULL, 1767000000000, 1767000009000, NULL)`)
	for _, m := range conversation() {
		data, _ := json.Marshal(m.info)
		exec(`INSERT INTO message VALUES (?, 'ses_1', ?, ?, ?)`, m.id, m.info["time"].(map[string]any)["created"], 0, string(data))
		for _, p := range m.parts {
			id := p["id"].(string)
			delete(p, "id")
			data, _ := json.Marshal(p)
			exec(`INSERT INTO part VALUES (?, ?, 'ses_1', 0, 0, ?)`, id, m.id, string(data))
		}
	}
	return path
}

// writeStorage writes the same session as OpenCode's older JSON storage, and returns the
// path of its session file.
func writeStorage(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "storage")
	write := func(path string, v any) {
		os.MkdirAll(filepath.Dir(path), 0o755)
		data, _ := json.MarshalIndent(v, "", "  ")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sessionFile := filepath.Join(root, "session", "prj", "ses_1.json")
	write(sessionFile, map[string]any{"id": "ses_1", "projectID": "prj", "directory": "/w/api", "title": "Build failure", "version": "0.9.0",
		"time": map[string]any{"created": 1767000000000, "updated": 1767000009000}})
	for _, m := range conversation() {
		m.info["id"], m.info["sessionID"] = m.id, "ses_1"
		write(filepath.Join(root, "message", "ses_1", m.id+".json"), m.info)
		for _, p := range m.parts {
			p["messageID"], p["sessionID"] = m.id, "ses_1"
			write(filepath.Join(root, "part", m.id, p["id"].(string)+".json"), p)
		}
	}
	os.WriteFile(filepath.Join(root, "part", "msg_02a", "prt_09z.json"), []byte("{torn"), 0o600)
	return sessionFile
}

func openForTest(path string) (*sql.DB, error) { return sql.Open("sqlite", path) }
