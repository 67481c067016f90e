package contextbuild

import (
	"slices"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// pair makes every tool call answered in the next message and drops results that answer
// no call in the message before them. A result recorded further on (a transcript that
// interleaves another agent's messages) is moved next to its call; a call with no result
// anywhere (a crash or an interrupt) gets a synthetic is_error result. It reports whether
// it changed the list of messages, which may leave roles to merge again.
func (r *repairer) pair() bool {
	changed := false
	var calls []string // the tool_use ids of the message before
	for i := 0; i < len(r.msgs); i++ {
		m := r.msgs[i]
		if m.role == "assistant" {
			calls = toolUseIDs(m)
			if len(calls) > 0 && (i+1 == len(r.msgs) || r.msgs[i+1].role != "user") {
				r.msgs = slices.Insert(r.msgs, i+1, &ctxMessage{seq: -1, turn: m.turn, role: "user", typ: session.TypeToolResult, tokens: tokens.MessageOverhead})
				changed = true
			}
			continue
		}
		r.answer(i, calls)
		calls = nil
		if len(r.msgs[i].blocks) == 0 {
			r.note(RepairEmptyMessage, m.seq, "")
			r.msgs = slices.Delete(r.msgs, i, i+1)
			i--
			changed = true
		}
	}
	return changed
}

// answer makes the user message at i hold exactly one result for each call, in front.
func (r *repairer) answer(i int, calls []string) {
	m := r.msgs[i]
	want := map[string]bool{}
	for _, id := range calls {
		want[id] = true
	}
	var results, rest [][]byte
	for _, raw := range m.blocks {
		b, ok := tokens.DecodeBlock(raw)
		switch {
		case !ok || b.Type != blocks.BlockToolResult:
			rest = append(rest, raw)
		case want[b.ToolUseID]:
			results = append(results, raw)
			delete(want, b.ToolUseID)
		default:
			r.note(RepairOrphanResult, m.seq, b.ToolUseID)
			m.tokens -= blockTokens(raw)
		}
	}
	for _, id := range calls {
		if !want[id] {
			continue
		}
		raw := r.takeLaterResult(i+1, id)
		if raw == nil {
			raw = blocks.ToolResultJSON(id, blocks.MustJSON(interruptedResult), true)
			r.note(RepairSyntheticResult, m.seq, id)
		} else {
			r.note(RepairMovedResult, m.seq, id)
		}
		m.tokens += blockTokens(raw)
		results = append(results, raw)
	}
	m.blocks = append(results, rest...)
}

// takeLaterResult removes and returns the first result for id in a user message from i on.
func (r *repairer) takeLaterResult(from int, id string) []byte {
	for _, m := range r.msgs[from:] {
		if m.role != "user" {
			continue
		}
		for j, raw := range m.blocks {
			if b, ok := tokens.DecodeBlock(raw); ok && b.Type == blocks.BlockToolResult && b.ToolUseID == id {
				m.blocks = slices.Delete(slices.Clone(m.blocks), j, j+1)
				m.tokens -= blockTokens(raw)
				return raw
			}
		}
	}
	return nil
}

// toolUseIDs returns the ids of an assistant message's tool calls, in order.
func toolUseIDs(m *ctxMessage) []string {
	var ids []string
	for _, raw := range m.blocks {
		if b, ok := tokens.DecodeBlock(raw); ok && b.Type == blocks.BlockToolUse {
			ids = append(ids, b.ID)
		}
	}
	return ids
}
