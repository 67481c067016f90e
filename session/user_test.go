package session_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestAppendUserMessageKeepsBlocksAsGiven(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	blocks := `[{"type":"text","text":"what is this?","cache_control":{"type":"ephemeral"}},` +
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]`
	env := sessiontest.DecodeObject(t, sessiontest.Must(s.AppendUserMessage([]byte(blocks))))
	if env["type"] != "user" || env["status"] != "complete" {
		t.Errorf("envelope type/status = %v/%v", env["type"], env["status"])
	}
	want := sessiontest.Decode(t, blocks)
	if got := sessiontest.Envelopes(t, s)[0]["message"].(map[string]any)["content"]; !reflect.DeepEqual(got, want) {
		t.Errorf("stored content = %v, want %v", got, want)
	}
}

func TestAppendUserMessageRejectsInvalidContent(t *testing.T) {
	cases := []struct{ name, content, mention string }{
		{"empty array", `[]`, "content"},
		{"number", `5`, "content"},
		{"object", `{"type":"text","text":"x"}`, "content"},
		{"not JSON", `hello`, "content"},
		{"block without type", `[{"type":"text","text":"ok"},{"text":"x"}]`, "content[1]"},
		{"text not a string", `[{"type":"text","text":["x"]}]`, "content[0]"},
		{"tool_result content number", `[{"type":"tool_result","tool_use_id":"t","content":3}]`, "content[0]"},
	}
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "first")
	before := sessiontest.Must(s.Messages(true))
	for _, c := range cases {
		_, err := s.AppendUserMessage([]byte(c.content))
		if !errors.Is(err, session.ErrInvalidMessage) {
			t.Errorf("%s: err = %v, want ErrInvalidMessage", c.name, err)
			continue
		}
		if !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: err %q does not name %s", c.name, err, c.mention)
		}
	}
	if after := sessiontest.Must(s.Messages(true)); string(before) != string(after) {
		t.Errorf("rejected user messages changed the session:\n%s\n%s", before, after)
	}
}

func TestToolResultsWithTextStayInTheAssistantsTurn(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "list the folder")
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.ToolUse("t1", "ls", `{"dir":"."}`), sessiontest.Done("tool_use", ""))
	mixed := `[{"type":"tool_result","tool_use_id":"t1","content":"a.go"},{"type":"text","text":"also check b"}]`
	env := sessiontest.DecodeObject(t, sessiontest.Must(s.AppendUserMessage([]byte(mixed))))
	if env["type"] != session.TypeToolResult {
		t.Errorf("type = %v, want tool_result", env["type"])
	}
	turns := sessiontest.Must(s.Turns())
	if len(turns) != 1 || turns[0].EndIndex != 2 {
		t.Errorf("turns = %+v, want one turn over messages 0..2", turns)
	}
	unknown := `[{"type":"tool_result","tool_use_id":"nope","content":"x"},{"type":"text","text":"y"}]`
	if _, err := s.AppendUserMessage([]byte(unknown)); !errors.Is(err, session.ErrUnknownToolUse) {
		t.Errorf("mixed content with an unknown tool_use_id: err = %v, want ErrUnknownToolUse", err)
	}
}
