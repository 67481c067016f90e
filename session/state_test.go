package session_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func TestContextIsStampedOnTheMessagesThatFollow(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "before any context")
	if err := s.SetContext([]byte(`{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`)); err != nil {
		t.Fatal(err)
	}
	sessiontest.Prompt(t, s, "run ls")
	sessiontest.Feed(t, s, sessiontest.ToolUse("t1", "bash", `{}`), sessiontest.Done("tool_use", ""), sessiontest.ToolResult("t1", `"a.go"`), sessiontest.Text("ok"))
	override := session.MessageOptions{Context: []byte(`{"cwd":"/elsewhere"}`)}
	sessiontest.Must(s.AppendUserMessageWith([]byte(`"over there"`), override))
	if err := s.SetContext(nil); err != nil {
		t.Fatal(err)
	}
	sessiontest.Prompt(t, s, "cleared")

	want := []any{nil,
		sessiontest.Decode(t, `{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`), // prompt
		sessiontest.Decode(t, `{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`), // assistant
		sessiontest.Decode(t, `{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`), // tool results
		sessiontest.Decode(t, `{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`), // assistant
		sessiontest.Decode(t, `{"cwd":"/elsewhere"}`),
		nil,
	}
	envs := sessiontest.Envelopes(t, s)
	if len(envs) != len(want) {
		t.Fatalf("got %d envelopes, want %d", len(envs), len(want))
	}
	for i, env := range envs {
		if !reflect.DeepEqual(env["context"], want[i]) {
			t.Errorf("envelope %d (%s) context = %v, want %v", i, env["type"], env["context"], want[i])
		}
	}
}

func TestTodosAndThinkingMetadataAreKeptVerbatim(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	todos := `[{"content":"Write tests","status":"in_progress","activeForm":"Writing tests","priority":"high"}]`
	thinking := `{"level":"high","disabled":false,"triggers":["ultrathink"]}`
	env := sessiontest.DecodeObject(t, sessiontest.Must(s.AppendUserMessageWith([]byte(`"go"`), session.MessageOptions{
		Todos: []byte(todos), ThinkingMetadata: []byte(thinking)})))
	state := `{"todos":[{"content":"Done","status":"completed","activeForm":"Doing"}]}`
	sessiontest.Feed(t, s, stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_1", State: []byte(state)}, sessiontest.Text("hi"), sessiontest.Done("end_turn", ""))

	if !reflect.DeepEqual(env["todos"], sessiontest.Decode(t, todos)) || !reflect.DeepEqual(env["thinkingMetadata"], sessiontest.Decode(t, thinking)) {
		t.Errorf("returned envelope todos/thinkingMetadata = %v / %v", env["todos"], env["thinkingMetadata"])
	}
	e = e.Reopen(t)
	envs := sessiontest.Envelopes(t, e.Open(t, s.ID()))
	if !reflect.DeepEqual(envs[0]["todos"], sessiontest.Decode(t, todos)) || !reflect.DeepEqual(envs[0]["thinkingMetadata"], sessiontest.Decode(t, thinking)) {
		t.Errorf("stored prompt todos/thinkingMetadata = %v / %v", envs[0]["todos"], envs[0]["thinkingMetadata"])
	}
	if want := sessiontest.Decode(t, `[{"content":"Done","status":"completed","activeForm":"Doing"}]`); !reflect.DeepEqual(envs[1]["todos"], want) {
		t.Errorf("assistant todos = %v, want %v", envs[1]["todos"], want)
	}
	if _, ok := envs[1]["thinkingMetadata"]; ok {
		t.Errorf("thinkingMetadata is per message, but the assistant message has one: %v", envs[1])
	}
}

func TestSidechainMessagesAreKeptButLeftOutOfTheConversation(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "write three poems")
	sessiontest.Feed(t, s, sessiontest.Start("msg_main"), sessiontest.ToolUse("toolu_task", "Task", `{"prompt":"a poem"}`), sessiontest.Done("tool_use", ""))
	sub := session.MessageOptions{AgentID: "a1", ParentToolUseID: "toolu_task"}
	sessiontest.Must(s.AppendUserMessageWith([]byte(`"a poem"`), sub))
	state := `{"isSidechain":true,"agentId":"a1","parentToolUseId":"toolu_task"}`
	sessiontest.Feed(t, s,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_sub", State: []byte(state)},
		sessiontest.ToolUse("toolu_search", "WebSearch", `{"q":"curry"}`), sessiontest.Done("tool_use", ""),
		sessiontest.ToolResult("toolu_search", `"results"`), // inherits the sidechain of the message it answers
		sessiontest.Text("Roses are red"), sessiontest.Done("end_turn", ""),
		sessiontest.ToolResult("toolu_task", `"Roses are red"`), // answers a call of the main chain, so it is on it
	)
	sessiontest.Feed(t, s, sessiontest.Start("msg_main2"), sessiontest.Text("Here is the poem."), sessiontest.Done("end_turn", ""))

	envs := sessiontest.Envelopes(t, s)
	wantSide := []bool{false, false, true, true, true, true, false, false}
	if len(envs) != len(wantSide) {
		t.Fatalf("got %d envelopes, want %d", len(envs), len(wantSide))
	}
	for i, env := range envs {
		if env["isSidechain"] != wantSide[i] {
			t.Errorf("envelope %d isSidechain = %v, want %v", i, env["isSidechain"], wantSide[i])
		}
		if wantSide[i] && (env["agentId"] != "a1" || env["parentToolUseId"] != "toolu_task" || env["turn"] != float64(0)) {
			t.Errorf("sidechain envelope %d: agentId %v parentToolUseId %v turn %v", i, env["agentId"], env["parentToolUseId"], env["turn"])
		}
	}
	// Each chain links its own messages; the main chain goes on past the sidechain.
	parents := []any{nil, envs[0]["uuid"], nil, envs[2]["uuid"], envs[3]["uuid"], envs[4]["uuid"], envs[1]["uuid"], envs[6]["uuid"]}
	for i, env := range envs {
		if env["parentUuid"] != parents[i] {
			t.Errorf("envelope %d parentUuid = %v, want %v", i, env["parentUuid"], parents[i])
		}
	}

	msgs := sessiontest.Messages(t, s)
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m["role"].(string))
	}
	if !reflect.DeepEqual(roles, []string{"user", "assistant", "user", "assistant"}) {
		t.Fatalf("conversation roles = %v, want the main chain only", roles)
	}
	turns := sessiontest.Must(s.Turns())
	if want := []session.Turn{{Index: 0, StartIndex: 0, EndIndex: 3}}; !reflect.DeepEqual(turns, want) {
		t.Errorf("turns = %v, want %v (positions in the conversation, sidechains left out)", turns, want)
	}
}

func TestBadMessageOptionsRecordNothing(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "hi")
	before := sessiontest.Envelopes(t, s)
	for _, bad := range []string{`{"todos":{}}`, `{"context":"cwd"}`, `{"thinkingMetadata":[1]}`,
		`{"isSidechain":false,"agentId":"a1"}`, `{"agentId":7}`, `[]`} {
		opts, err := session.ParseMessageOptions([]byte(bad))
		if err == nil {
			_, err = s.AppendUserMessageWith([]byte(`"x"`), opts)
			t.Errorf("options %s were accepted", bad)
		}
		err = s.Ingest(stream.Chunk{Kind: stream.ChunkMessageStart, State: []byte(bad)})
		if !errors.Is(err, session.ErrInvalidChunk) {
			t.Errorf("message_start with %s: err %v, want ErrInvalidChunk", bad, err)
		}
	}
	if err := s.SetContext([]byte(`["cwd"]`)); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("SetContext(array): err %v, want ErrInvalidArgument", err)
	}
	if after := sessiontest.Envelopes(t, s); !reflect.DeepEqual(after, before) {
		t.Errorf("bad options changed the session:\n%v\n%v", before, after)
	}
}

func TestAReopenedSessionGoesOnFromTheMainChain(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "main")
	sessiontest.Must(s.AppendUserMessageWith([]byte(`"sub"`), session.MessageOptions{AgentID: "a1"}))
	main := sessiontest.Envelopes(t, s)[0]["uuid"]
	e = e.Reopen(t)
	s = e.Open(t, s.ID())
	env := sessiontest.Prompt(t, s, "next")
	if env["parentUuid"] != main || env["turn"] != float64(1) {
		t.Errorf("after reopen the next prompt has parent %v turn %v, want %v turn 1", env["parentUuid"], env["turn"], main)
	}
}
