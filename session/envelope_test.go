package session_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func TestEnvelopeFields(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	before := time.Now().Add(-time.Second)
	sessiontest.Prompt(t, s, "run ls")
	sessiontest.Feed(t, s,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_1", Model: "m", Provider: "bedrock", RequestID: "req_42"},
		sessiontest.ToolUse("t1", "bash", `{"cmd":"ls"}`), sessiontest.Done("tool_use", ""),
		stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "t1", JSON: []byte(`"a.go"`),
			Raw: []byte(`{"stdout":"a.go\n","stderr":"","interrupted":false,"isImage":false,"durationMs":5,"exitCode":0}`)},
		sessiontest.Text("There is a.go."), sessiontest.Done("end_turn", ""),
	)
	after := time.Now().Add(time.Second)
	envs := sessiontest.Envelopes(t, s)
	if len(envs) != 4 {
		t.Fatalf("got %d envelopes, want 4", len(envs))
	}
	var prev any // the first message has a null parent
	var prevTime time.Time
	seen := map[string]bool{}
	for i, env := range envs {
		id, err := uuid.Parse(env["uuid"].(string))
		if err != nil || id.Version() != 7 {
			t.Errorf("message %d uuid %v: version %v, err %v; want a v7 UUID", i, env["uuid"], id.Version(), err)
		}
		if seen[id.String()] {
			t.Errorf("message %d reuses uuid %s", i, id)
		}
		seen[id.String()] = true
		if parent, ok := env["parentUuid"]; !ok || parent != prev {
			t.Errorf("message %d parentUuid = %v (present %v), want %v", i, parent, ok, prev)
		}
		prev = env["uuid"]
		if env["sessionId"] != s.ID() {
			t.Errorf("message %d sessionId = %v, want %s", i, env["sessionId"], s.ID())
		}
		ts, err := time.Parse(time.RFC3339Nano, env["timestamp"].(string))
		if err != nil || ts.Before(before) || ts.After(after) || ts.Before(prevTime) || ts.Location() != time.UTC {
			t.Errorf("message %d timestamp %v (err %v): want ISO 8601 UTC, now, not before the previous", i, env["timestamp"], err)
		}
		prevTime = ts
		if env["status"] != "complete" || env["turn"] != float64(0) {
			t.Errorf("message %d status/turn = %v/%v", i, env["status"], env["turn"])
		}
	}
	if envs[0]["parentUuid"] != nil {
		t.Errorf("first parentUuid = %v, want null", envs[0]["parentUuid"])
	}
	// The provider comes from message_start, else from the session; requestId only from message_start.
	if envs[1]["provider"] != "bedrock" || envs[1]["requestId"] != "req_42" {
		t.Errorf("assistant provider/requestId = %v/%v", envs[1]["provider"], envs[1]["requestId"])
	}
	if envs[0]["provider"] != "anthropic" || envs[3]["provider"] != "anthropic" {
		t.Errorf("messages without message_start provider = %v, %v; want the session's", envs[0]["provider"], envs[3]["provider"])
	}
	if _, ok := envs[3]["requestId"]; ok {
		t.Errorf("requestId on a message without message_start: %v", envs[3])
	}
	wantRaw := map[string]any{"t1": sessiontest.Decode(t, `{"stdout":"a.go\n","stderr":"","interrupted":false,"isImage":false,"durationMs":5,"exitCode":0}`)}
	if !reflect.DeepEqual(envs[2]["toolUseResults"], wantRaw) {
		t.Errorf("toolUseResults = %v, want %v", envs[2]["toolUseResults"], wantRaw)
	}
	for _, i := range []int{0, 1, 3} {
		if _, ok := envs[i]["toolUseResults"]; ok {
			t.Errorf("message %d has toolUseResults", i)
		}
	}
	// The message inside the envelope is what Messages(false) returns.
	plain := sessiontest.Messages(t, s)
	for i := range envs {
		if !reflect.DeepEqual(envs[i]["message"], any(plain[i])) {
			t.Errorf("message %d differs between Messages(true) and Messages(false)", i)
		}
	}
}

func TestParentChainContinuesAcrossSessionsIndependently(t *testing.T) {
	e := sessiontest.NewEnv(t)
	a, b := e.Create(t), e.Create(t)
	sessiontest.Prompt(t, a, "a1")
	sessiontest.Prompt(t, b, "b1")
	sessiontest.Prompt(t, a, "a2")
	envA, envB := sessiontest.Envelopes(t, a), sessiontest.Envelopes(t, b)
	if len(envA) != 2 || len(envB) != 1 {
		t.Fatalf("messages leaked between sessions: %d in a, %d in b", len(envA), len(envB))
	}
	if envA[1]["parentUuid"] != envA[0]["uuid"] || envB[0]["parentUuid"] != nil {
		t.Errorf("parent chain crossed sessions: a=%v b=%v", envA, envB)
	}
}
