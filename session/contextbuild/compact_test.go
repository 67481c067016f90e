package contextbuild_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// summarizer is what a caller's model would do: here it names the range it was given, so
// that tests can see what each call covered.
type summarizer struct{ calls []json.RawMessage }

func (z *summarizer) summarize(msgs json.RawMessage) string {
	z.calls = append(z.calls, msgs)
	var list []map[string]any
	json.Unmarshal(msgs, &list)
	return fmt.Sprintf("The user and the assistant exchanged %d messages about fixing modules.", len(list))
}

// compact runs a compaction as the JavaScript layer does: plan, summary steps, boundary.
func compact(t *testing.T, s *session.Session, keep int, z *summarizer) *contextbuild.CompactPlan {
	t.Helper()
	plan, err := contextbuild.PlanCompaction(s, contextbuild.CompactOptions{KeepRecentTurns: keep})
	if err != nil || !plan.Compactable {
		t.Fatalf("PlanCompaction: %+v %v", plan, err)
	}
	for {
		step, err := contextbuild.NextSummaryStep(s, plan.CutSeq-1, contextbuild.SummaryOptions{})
		if err != nil {
			t.Fatalf("NextSummaryStep: %v", err)
		}
		if step == nil {
			break
		}
		if _, err := contextbuild.StoreSummary(s, step.ToSeq, z.summarize(step.Messages), "test-model"); err != nil {
			t.Fatalf("StoreSummary: %v", err)
		}
	}
	if _, err := contextbuild.CommitCompaction(s, plan.CutSeq, contextbuild.TriggerManual); err != nil {
		t.Fatalf("CommitCompaction: %v", err)
	}
	return plan
}

func TestSummaryIsMadeOncePerRangeAndReusedAfterReopening(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := sessiontest.WithMessages(t, e, sessiontest.Conversation(400, false))
	z := &summarizer{}
	plan := compact(t, s, 3, z)
	if len(z.calls) == 0 {
		t.Fatal("the summarizer was not called")
	}
	calls := len(z.calls)
	id := s.ID()
	e = e.Reopen(t)
	s = e.Open(t, id)
	step, err := contextbuild.NextSummaryStep(s, plan.CutSeq-1, contextbuild.SummaryOptions{})
	if err != nil || step != nil {
		t.Fatalf("after reopening, the summary of messages 0-%d is not cached: %+v %v", plan.CutSeq-1, step, err)
	}
	again, err := contextbuild.PlanCompaction(s, contextbuild.CompactOptions{KeepRecentTurns: 3})
	if err != nil || again.Compactable {
		t.Fatalf("a second compaction of the same session is planned: %+v %v", again, err)
	}
	if len(z.calls) != calls {
		t.Fatalf("the summarizer was called again")
	}
	res := build(t, s, contextbuild.BuildOptions{ContextWindow: 200_000})
	if res.Strategy != contextbuild.FullHistoryName || res.SummarizedMessageCount != plan.CutSeq {
		t.Fatalf("the build after compaction is %s with %d summarized, want full-history from the boundary with %d", res.Strategy, res.SummarizedMessageCount, plan.CutSeq)
	}
}

func TestLongRangesAreSummarizedInStepsThatEachFitTheSummarizer(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := sessiontest.WithMessages(t, e, sessiontest.Conversation(2000, false))
	plan, _ := contextbuild.PlanCompaction(s, contextbuild.CompactOptions{})
	z := &summarizer{}
	var prev int64 = -1
	for {
		step, err := contextbuild.NextSummaryStep(s, plan.CutSeq-1, contextbuild.SummaryOptions{MaxInputTokens: 20_000})
		if err != nil {
			t.Fatal(err)
		}
		if step == nil {
			break
		}
		if step.BaseToSeq != prev || step.ToSeq <= prev {
			t.Fatalf("step %+v does not continue from %d", step, prev)
		}
		if prev >= 0 && !bytes.Contains(step.Messages, []byte("exchanged")) {
			t.Fatalf("step from %d does not start with the previous summary", prev)
		}
		contextbuild.StoreSummary(s, step.ToSeq, z.summarize(step.Messages), "")
		prev = step.ToSeq
	}
	if prev != plan.CutSeq-1 || len(z.calls) < 3 {
		t.Fatalf("steps ended at %d after %d calls; want %d after several", prev, len(z.calls), plan.CutSeq-1)
	}
	for i, c := range z.calls {
		if v, _ := contextbuild.ValidateContext(c, tokens.ProviderAnthropic); !v.Valid {
			t.Fatalf("summarizer input %d is not a valid context: %+v", i, v.Problems)
		}
	}
}

// TestSeed000CompactionAfterRestore is seed 000's scenario: a session of 50 turns is saved,
// the process goes away, the session is reopened and compacted. Compaction must know the
// turns: it summarizes turns 1-40 and keeps turns 41-50 verbatim.
func TestSeed000CompactionAfterRestore(t *testing.T) {
	e := sessiontest.NewEnv(t)
	msgs := sessiontest.Conversation(200, false) // 50 turns of 4 messages
	s := sessiontest.WithMessages(t, e, msgs)
	id := s.ID()
	e = e.Reopen(t)
	s = e.Open(t, id)
	turns, _ := s.Turns()
	if len(turns) != 50 {
		t.Fatalf("%d turns after reopening, want 50", len(turns))
	}
	z := &summarizer{}
	plan := compact(t, s, 10, z)
	if plan.CutSeq != turns[40].StartIndex {
		t.Fatalf("cut at message %d, want the start of turn 41 (%d)", plan.CutSeq, turns[40].StartIndex)
	}
	var summarized []map[string]any
	json.Unmarshal(z.calls[0], &summarized)
	if len(z.calls) != 1 || !strings.Contains(fmt.Sprint(summarized[0]["content"]), "Turn 0:") ||
		!strings.Contains(fmt.Sprint(summarized[len(summarized)-4]["content"]), "Turn 39:") ||
		!strings.Contains(fmt.Sprint(summarized[len(summarized)-1]["content"]), "test for module 39 instead") {
		t.Fatalf("the summarizer did not get turns 1-40 from their first message to their last")
	}
	res := build(t, s, contextbuild.BuildOptions{ContextWindow: 200_000})
	var sent []map[string]any
	json.Unmarshal(res.Messages, &sent)
	kept := msgs[turns[40].StartIndex:]
	if len(sent) != len(kept) || !strings.HasPrefix(fmt.Sprint(sent[0]["content"]), "[map[text:Summary of the earlier conversation") {
		t.Fatalf("sent %d messages, want the summary joined to turn 41's prompt and %d verbatim", len(sent), len(kept))
	}
	for i := 1; i < len(sent); i++ {
		if !sameContent(sent[i]["content"], kept[i]["content"]) {
			t.Fatalf("message %d of turns 41-50 is not verbatim:\n%v\n%v", i, sent[i]["content"], kept[i]["content"])
		}
	}
	all, _ := s.Messages(false)
	var stored []map[string]any
	json.Unmarshal(all, &stored)
	if len(stored) != 200 {
		t.Fatalf("%d messages stored after compaction, want all 200", len(stored))
	}
}

// sameContent compares content as sent with content as given, where a string is one text block.
func sameContent(sent, given any) bool {
	if s, ok := given.(string); ok {
		given = []any{map[string]any{"type": "text", "text": s}}
	}
	a, _ := json.Marshal(sent)
	b, _ := json.Marshal(given)
	return bytes.Equal(a, b)
}
