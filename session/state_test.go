package session_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestContextIsStampedOnTheMessagesThatFollow(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "before any context")
	if err := s.SetContext([]byte(`{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`)); err != nil {
		t.Fatal(err)
	}
	prompt(t, s, "run ls")
	feed(t, s, toolUse("t1", "bash", `{}`), done("tool_use", ""), toolResult("t1", `"a.go"`), text("ok"))
	override := session.MessageOptions{Context: []byte(`{"cwd":"/elsewhere"}`)}
	must(s.AppendUserMessageWith([]byte(`"over there"`), override))
	if err := s.SetContext(nil); err != nil {
		t.Fatal(err)
	}
	prompt(t, s, "cleared")

	want := []any{nil,
		decode(t, `{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`), // prompt
		decode(t, `{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`), // assistant
		decode(t, `{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`), // tool results
		decode(t, `{"cwd":"/work/app","gitBranch":"main","platform":"linux"}`), // assistant
		decode(t, `{"cwd":"/elsewhere"}`),
		nil,
	}
	envs := envelopes(t, s)
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
	e := newEnv(t)
	s := e.create(t)
	todos := `[{"content":"Write tests","status":"in_progress","activeForm":"Writing tests","priority":"high"}]`
	thinking := `{"level":"high","disabled":false,"triggers":["ultrathink"]}`
	env := decodeObject(t, must(s.AppendUserMessageWith([]byte(`"go"`), session.MessageOptions{
		Todos: []byte(todos), ThinkingMetadata: []byte(thinking)})))
	state := `{"todos":[{"content":"Done","status":"completed","activeForm":"Doing"}]}`
	feed(t, s, session.Chunk{Kind: session.ChunkMessageStart, ID: "msg_1", State: []byte(state)}, text("hi"), done("end_turn", ""))

	if !reflect.DeepEqual(env["todos"], decode(t, todos)) || !reflect.DeepEqual(env["thinkingMetadata"], decode(t, thinking)) {
		t.Errorf("returned envelope todos/thinkingMetadata = %v / %v", env["todos"], env["thinkingMetadata"])
	}
	e = e.reopen(t)
	envs := envelopes(t, e.open(t, s.ID()))
	if !reflect.DeepEqual(envs[0]["todos"], decode(t, todos)) || !reflect.DeepEqual(envs[0]["thinkingMetadata"], decode(t, thinking)) {
		t.Errorf("stored prompt todos/thinkingMetadata = %v / %v", envs[0]["todos"], envs[0]["thinkingMetadata"])
	}
	if want := decode(t, `[{"content":"Done","status":"completed","activeForm":"Doing"}]`); !reflect.DeepEqual(envs[1]["todos"], want) {
		t.Errorf("assistant todos = %v, want %v", envs[1]["todos"], want)
	}
	if _, ok := envs[1]["thinkingMetadata"]; ok {
		t.Errorf("thinkingMetadata is per message, but the assistant message has one: %v", envs[1])
	}
}

func TestSidechainMessagesAreKeptButLeftOutOfTheConversation(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "write three poems")
	feed(t, s, start("msg_main"), toolUse("toolu_task", "Task", `{"prompt":"a poem"}`), done("tool_use", ""))
	sub := session.MessageOptions{AgentID: "a1", ParentToolUseID: "toolu_task"}
	must(s.AppendUserMessageWith([]byte(`"a poem"`), sub))
	state := `{"isSidechain":true,"agentId":"a1","parentToolUseId":"toolu_task"}`
	feed(t, s,
		session.Chunk{Kind: session.ChunkMessageStart, ID: "msg_sub", State: []byte(state)},
		toolUse("toolu_search", "WebSearch", `{"q":"curry"}`), done("tool_use", ""),
		toolResult("toolu_search", `"results"`), // inherits the sidechain of the message it answers
		text("Roses are red"), done("end_turn", ""),
		toolResult("toolu_task", `"Roses are red"`), // answers a call of the main chain, so it is on it
	)
	feed(t, s, start("msg_main2"), text("Here is the poem."), done("end_turn", ""))

	envs := envelopes(t, s)
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

	msgs := messages(t, s)
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m["role"].(string))
	}
	if !reflect.DeepEqual(roles, []string{"user", "assistant", "user", "assistant"}) {
		t.Fatalf("conversation roles = %v, want the main chain only", roles)
	}
	turns := must(s.Turns())
	if want := []session.Turn{{Index: 0, StartIndex: 0, EndIndex: 3}}; !reflect.DeepEqual(turns, want) {
		t.Errorf("turns = %v, want %v (positions in the conversation, sidechains left out)", turns, want)
	}
}

func TestBadMessageOptionsRecordNothing(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "hi")
	before := envelopes(t, s)
	for _, bad := range []string{`{"todos":{}}`, `{"context":"cwd"}`, `{"thinkingMetadata":[1]}`,
		`{"isSidechain":false,"agentId":"a1"}`, `{"agentId":7}`, `[]`} {
		opts, err := session.ParseMessageOptions([]byte(bad))
		if err == nil {
			_, err = s.AppendUserMessageWith([]byte(`"x"`), opts)
			t.Errorf("options %s were accepted", bad)
		}
		err = s.Ingest(session.Chunk{Kind: session.ChunkMessageStart, State: []byte(bad)})
		if !errors.Is(err, session.ErrInvalidChunk) {
			t.Errorf("message_start with %s: err %v, want ErrInvalidChunk", bad, err)
		}
	}
	if err := s.SetContext([]byte(`["cwd"]`)); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("SetContext(array): err %v, want ErrInvalidArgument", err)
	}
	if after := envelopes(t, s); !reflect.DeepEqual(after, before) {
		t.Errorf("bad options changed the session:\n%v\n%v", before, after)
	}
}

func TestAReopenedSessionGoesOnFromTheMainChain(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "main")
	must(s.AppendUserMessageWith([]byte(`"sub"`), session.MessageOptions{AgentID: "a1"}))
	main := envelopes(t, s)[0]["uuid"]
	e = e.reopen(t)
	s = e.open(t, s.ID())
	env := prompt(t, s, "next")
	if env["parentUuid"] != main || env["turn"] != float64(1) {
		t.Errorf("after reopen the next prompt has parent %v turn %v, want %v turn 1", env["parentUuid"], env["turn"], main)
	}
}
