package contextbuild_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/stream"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// budgets are context windows from a small local model's to a large cloud model's.
var windows = []int64{1_000_000, 266_000, 64_000, 32_000, 12_000, 6_000, 2_000, 600}

func TestContextFitsIsValidAndStepsDownAsTheBudgetShrinks(t *testing.T) {
	for _, n := range []int{10, 1000, 20000} {
		for _, interrupted := range []bool{false, true} {
			if n == 20000 && !interrupted {
				continue // counting 20,000 messages under the race detector takes a minute; one variant will do
			}
			t.Run(fmt.Sprintf("%d messages, interrupted %v", n, interrupted), func(t *testing.T) {
				e := sessiontest.NewEnv(t)
				s := sessiontest.WithMessages(t, e, sessiontest.Conversation(n, interrupted))
				for _, provider := range []string{tokens.ProviderAnthropic, tokens.ProviderOpenAI} {
					last := -1
					for _, w := range windows {
						res := build(t, s, contextbuild.BuildOptions{ContextWindow: w, Format: provider, SystemPrompt: "You are a coding agent."})
						if r := rank(res.Strategy); r < last {
							t.Errorf("window %d: strategy %s after a smaller window chose a later one", w, res.Strategy)
						} else {
							last = r
						}
						if interrupted && res.Strategy != contextbuild.FallbackName {
							requireInterruptedResult(t, res, provider)
						}
					}
				}
			})
		}
	}
}

// requireInterruptedResult checks that the tool call left without a result got a
// synthetic is_error one.
func requireInterruptedResult(t *testing.T, res *contextbuild.ContextResult, provider string) {
	t.Helper()
	var msgs []map[string]any
	json.Unmarshal(res.Messages, &msgs)
	last := msgs[len(msgs)-1]
	if provider == tokens.ProviderOpenAI {
		if last["role"] != "tool" || last["tool_call_id"] != "toolu_interrupted" {
			t.Fatalf("%s: the context does not end with the interrupted call's tool message: %v", res.Strategy, last)
		}
		return
	}
	blocks, _ := last["content"].([]any)
	b, _ := blocks[0].(map[string]any)
	if last["role"] != "user" || b["tool_use_id"] != "toolu_interrupted" || b["is_error"] != true {
		t.Fatalf("%s: the context does not end with a synthetic is_error result: %v", res.Strategy, last)
	}
}

// TestSubagentMessagesStayOutOfTheContext: a sidechain's records are kept but are not part
// of the main conversation, so they are neither sent nor counted against the budget.
func TestSubagentMessagesStayOutOfTheContext(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "write a poem")
	sessiontest.Feed(t, s, sessiontest.Start("msg_main"), sessiontest.ToolUse("toolu_task", "Task", `{"prompt":"a poem"}`), sessiontest.Done("tool_use", ""))
	sub := session.MessageOptions{AgentID: "a1", ParentToolUseID: "toolu_task"}
	sessiontest.Must(s.AppendUserMessageWith([]byte(`"a poem, `+strings.Repeat("with many details ", 2000)+`"`), sub))
	sessiontest.Feed(t, s,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_sub", State: []byte(`{"agentId":"a1","parentToolUseId":"toolu_task"}`)},
		sessiontest.ToolUse("toolu_search", "WebSearch", `{"q":"poems"}`), sessiontest.Done("tool_use", ""),
		sessiontest.ToolResult("toolu_search", `"results"`), sessiontest.Text("Roses are red"), sessiontest.Done("end_turn", ""),
		sessiontest.ToolResult("toolu_task", `"Roses are red"`),
	)
	sessiontest.Feed(t, s, sessiontest.Start("msg_main2"), sessiontest.Text("Here is the poem."), sessiontest.Done("end_turn", ""))

	res := build(t, s, contextbuild.BuildOptions{ContextWindow: 8000})
	if res.Strategy != contextbuild.FullHistoryName || strings.Contains(string(res.Messages), "toolu_search") || strings.Contains(string(res.Messages), "many details") {
		t.Fatalf("%s context holds the subagent's messages: %s", res.Strategy, res.Messages)
	}
	main, _ := s.Messages(false)
	var want, got []map[string]any
	json.Unmarshal(main, &want)
	json.Unmarshal(res.Messages, &got)
	if len(got) != len(want) {
		t.Fatalf("sent %d messages, the main conversation has %d", len(got), len(want))
	}
	for i := range got {
		if !sameContent(got[i]["content"], want[i]["content"]) {
			t.Fatalf("message %d: %v, want %v", i, got[i]["content"], want[i]["content"])
		}
	}
}

func TestAnEmptySessionHasNoContext(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	if _, err := contextbuild.Build(s, contextbuild.BuildOptions{ContextWindow: 8000}); !errors.Is(err, session.ErrInvalidArgument) {
		t.Fatalf("Build of an empty session: %v", err)
	}
	sessiontest.Prompt(t, s, "hello")
	build(t, s, contextbuild.BuildOptions{ContextWindow: 8000})
}

// TestCountingAndCompactingLeaveTheListingAlone: token counts, summaries and boundaries are
// bookkeeping, not activity, so a session does not move up the list when they are written.
func TestCountingAndCompactingLeaveTheListingAlone(t *testing.T) {
	e := sessiontest.NewEnv(t)
	a := sessiontest.WithMessages(t, e, sessiontest.Conversation(200, false))
	b := e.Create(t)
	sessiontest.Prompt(t, b, "the newest session")
	before, err := catalog.List(e.Mgr, catalog.ListFilter{})
	if err != nil || len(before) != 2 || before[0].ID != b.ID() {
		t.Fatalf("listing before: %+v %v", before, err)
	}
	build(t, a, contextbuild.BuildOptions{ContextWindow: 8000})
	compact(t, a, 3, &summarizer{})
	after, _ := catalog.List(e.Mgr, catalog.ListFilter{})
	if after[0].ID != b.ID() || !after[1].UpdatedAt.Equal(before[1].UpdatedAt) {
		t.Fatalf("counting and compacting moved session %s: %v then %v", a.ID(), before[1].UpdatedAt, after[1].UpdatedAt)
	}
}
