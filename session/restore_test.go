package session_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// history uses every block type and message field a stored conversation may carry,
// including fields sessionkeep does not know.
const history = `[
 {"role":"user","content":[
   {"type":"text","text":"What is in these? \u00e9\u2028 <b>&amp;</b>"},
   {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},
   {"type":"image","source":{"type":"url","url":"https://example.com/a.png"}},
   {"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0x"},"title":"Spec","context":"from the wiki","citations":{"enabled":true}},
   {"type":"document","source":{"type":"text","media_type":"text/plain","data":"plain doc"}},
   {"type":"image","source":{"type":"file","file_id":"file_123"}}
 ]},
 {"role":"assistant","id":"msg_01","model":"claude-x","stop_reason":"tool_use","stop_sequence":null,
  "usage":{"input_tokens":100,"output_tokens":50,"cache_read_input_tokens":20,"cache_creation_input_tokens":10,"service_tier":"priority"},
  "container":{"id":"c1"},
  "content":[
   {"type":"thinking","thinking":"Let me look.","signature":"EqQBCkgIARAB+/=="},
   {"type":"thinking","thinking":"unsigned"},
   {"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix"},
   {"type":"text","text":"Reading.","citations":[{"type":"char_location","cited_text":"x","document_index":0,"start_char_index":0,"end_char_index":1}]},
   {"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.go","lines":[1,2,3]},"cache_control":{"type":"ephemeral"}},
   {"type":"tool_use","id":"toolu_2","name":"shot","input":{}},
   {"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go"}},
   {"type":"future_block","payload":{"nested":[1,"two",null,true]},"n":1.5}
 ]},
 {"role":"user","content":[
   {"type":"tool_result","tool_use_id":"toolu_1","content":"package main\n"},
   {"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":[
     {"type":"text","text":"screenshot failed"},
     {"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"/9j/4AAQ"}}]}
 ]},
 {"role":"assistant","id":"msg_02","stop_reason":"stop_sequence","stop_sequence":"\n\nHuman:",
  "usage":{"input_tokens":7,"output_tokens":3,"cache_read_input_tokens":400},
  "content":[{"type":"text","text":"It is a Go file."}]},
 {"role":"user","content":[{"type":"text","text":"thanks"}]},
 {"role":"assistant","content":[{"type":"text","text":"You're welcome."}],"x_custom":{"keep":"me"}}
]`

// flushRestored makes sure the restored messages were written whole: a rejected update
// (e.g. NULL in a NOT NULL column) would surface from Flush.
func flushRestored(t *testing.T, s *session.Session) {
	t.Helper()
	if err := s.Flush(); err != nil {
		t.Fatalf("Flush after restore: %v", err)
	}
}

// restored restores history into a new session and returns the session and its id.
func restored(t *testing.T, e *sessiontest.Env) *session.Session {
	t.Helper()
	s := e.Create(t)
	if err := s.RestoreMessages([]byte(history)); err != nil {
		t.Fatalf("RestoreMessages: %v", err)
	}
	return s
}

// compareMessages compares decoded messages with history, whole or only their content.
func compareMessages(t *testing.T, where string, got []map[string]any, onlyContent bool) {
	t.Helper()
	want := sessiontest.Decode(t, history).([]any)
	if len(got) != len(want) {
		t.Fatalf("%s: %d messages, want %d", where, len(got), len(want))
	}
	for i := range want {
		g, w := any(got[i]), want[i]
		if onlyContent {
			g, w = got[i]["content"], w.(map[string]any)["content"]
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: message %d\n got %v\nwant %v", where, i, g, w)
		}
	}
}

func TestRestoreKeepsEveryBlock(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := restored(t, e)
	id := s.ID()
	compareMessages(t, "live", sessiontest.Messages(t, s), true)
	e2 := e.Reopen(t)
	compareMessages(t, "after reopen", sessiontest.Messages(t, e2.Open(t, id)), true)
}

func TestRestoreKeepsMessageFields(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := restored(t, e)
	id := s.ID()
	flushRestored(t, s)
	compareMessages(t, "live", sessiontest.Messages(t, s), false)
	for i, env := range sessiontest.Envelopes(t, s) {
		if env["status"] != "complete" {
			t.Errorf("message %d status = %v, want complete", i, env["status"])
		}
	}
	e2 := e.Reopen(t)
	compareMessages(t, "after reopen", sessiontest.Messages(t, e2.Open(t, id)), false)
}

func TestRestoreDerivesTypesTurnsAndTracker(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := restored(t, e)
	id := s.ID()
	envs := sessiontest.Envelopes(t, s)
	wantTypes := []string{"user", "assistant", "tool_result", "assistant", "user", "assistant"}
	for i, env := range envs {
		if env["type"] != wantTypes[i] {
			t.Errorf("message %d type = %v, want %v", i, env["type"], wantTypes[i])
		}
	}
	want := []session.Turn{{Index: 0, StartIndex: 0, EndIndex: 3}, {Index: 1, StartIndex: 4, EndIndex: 5}}
	if got := turnsOf(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("Turns = %+v, want %+v", got, want)
	}
	wantTracker := session.TokenTracker{InputTokens: 107, OutputTokens: 53, CacheReadInputTokens: 420,
		CacheCreationInputTokens: 10, ContextTokens: 407}
	if got := sessiontest.Tracker(t, s); got != wantTracker {
		t.Errorf("tracker = %+v, want %+v", got, wantTracker)
	}
	// The tool uses restored are known to later tool results, in this process and the next.
	if err := s.Ingest(sessiontest.ToolResult("toolu_1", `"again"`)); err != nil {
		t.Errorf("tool_result for a restored tool_use: %v", err)
	}
	s2 := e.Reopen(t).Open(t, id)
	if got := sessiontest.Tracker(t, s2); got != wantTracker {
		t.Errorf("tracker after reopen = %+v, want %+v", got, wantTracker)
	}
	if err := s2.Ingest(sessiontest.ToolResult("toolu_2", `"again"`)); err != nil {
		t.Errorf("tool_result for a restored tool_use after reopen: %v", err)
	}
}

func TestRestoreStringContentBecomesTextBlock(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	if err := s.RestoreMessages([]byte(`[{"role":"user","content":"hello\nthere"},{"role":"assistant","content":"hi"}]`)); err != nil {
		t.Fatal(err)
	}
	msgs := sessiontest.Messages(t, s)
	if got := sessiontest.Content(t, msgs[0]); !reflect.DeepEqual(got, []map[string]any{{"type": "text", "text": "hello\nthere"}}) {
		t.Errorf("user content = %v", got)
	}
	if got := sessiontest.Content(t, msgs[1]); !reflect.DeepEqual(got, []map[string]any{{"type": "text", "text": "hi"}}) {
		t.Errorf("assistant content = %v", got)
	}
	list := sessiontest.Must(catalog.List(e.Mgr, catalog.ListFilter{}))
	if len(list) != 1 || list[0].Title != "hello" {
		t.Errorf("title from the first restored prompt = %+v", list)
	}
}

func TestRestoreIntoNonEmptySessionIsRefused(t *testing.T) {
	e := sessiontest.NewEnv(t)
	one := `[{"role":"user","content":"x"}]`

	s := e.Create(t)
	sessiontest.Prompt(t, s, "already here")
	if err := s.RestoreMessages([]byte(one)); !errors.Is(err, session.ErrSessionNotEmpty) {
		t.Errorf("restore after a prompt: err = %v, want ErrSessionNotEmpty", err)
	}

	s2 := e.Create(t)
	if err := s2.RestoreMessages([]byte(one)); err != nil {
		t.Fatal(err)
	}
	if err := s2.RestoreMessages([]byte(one)); !errors.Is(err, session.ErrSessionNotEmpty) {
		t.Errorf("second restore: err = %v, want ErrSessionNotEmpty", err)
	}
	if n := len(sessiontest.Messages(t, s2)); n != 1 {
		t.Errorf("%d messages after a refused restore, want 1", n)
	}
}

func TestRestoreRejectsInvalidMessagesAndRecordsNothing(t *testing.T) {
	valid := `{"role":"user","content":"fine"}`
	cases := []struct{ name, second, path string }{
		{"bad role", `{"role":"system","content":"x"}`, "messages[1].role"},
		{"missing role", `{"content":"x"}`, "messages[1].role"},
		{"missing content", `{"role":"user"}`, "messages[1].content"},
		{"content number", `{"role":"user","content":5}`, "messages[1].content"},
		{"block without type", `{"role":"user","content":[{"text":"x"}]}`, "messages[1].content[0]"},
		{"tool_use without id", `{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","name":"ls","input":{}}]}`, "messages[1].content[1]"},
		{"text with numeric text", `{"role":"assistant","content":[{"type":"text","text":42}]}`, "messages[1].content[0]"},
		{"tool_result is_error string", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":"yes"}]}`, "messages[1].content[0]"},
		{"image without source type", `{"role":"user","content":[{"type":"image","source":{"data":"x"}}]}`, "messages[1].content[0]"},
		{"usage not an object", `{"role":"assistant","content":[],"usage":[1]}`, "messages[1].usage"},
		{"message not an object", `"hello"`, "messages"},
	}
	e := sessiontest.NewEnv(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := e.Create(t)
			err := s.RestoreMessages([]byte("[" + valid + "," + c.second + "]"))
			if !errors.Is(err, session.ErrInvalidMessage) {
				t.Fatalf("err = %v, want ErrInvalidMessage", err)
			}
			if !strings.Contains(err.Error(), c.path) {
				t.Errorf("err %q does not name %s", err, c.path)
			}
			if got := sessiontest.Must(s.Messages(false)); string(got) != "[]" {
				t.Errorf("a rejected restore recorded %s", got)
			}
			// The session is still empty, so a valid restore goes through.
			if err := s.RestoreMessages([]byte("[" + valid + "]")); err != nil {
				t.Errorf("restore after a rejected one: %v", err)
			}
		})
	}
}

func TestRestoreRejectsNullContent(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	err := s.RestoreMessages([]byte(`[{"role":"user","content":null}]`))
	if err == nil {
		t.Fatalf("content null was accepted: %s", sessiontest.Must(s.Messages(false)))
	}
	if !errors.Is(err, session.ErrInvalidMessage) {
		t.Fatalf("err = %v, want ErrInvalidMessage", err)
	}
}
