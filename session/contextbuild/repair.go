package contextbuild

import (
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Repair is one change the builder made so that a context is valid for the provider. The
// stored messages are never changed; only the context is.
type Repair struct {
	Kind      string `json:"kind"`
	Seq       int64  `json:"seq"` // the stored message concerned; -1 for one the builder made
	ToolUseID string `json:"toolUseId,omitempty"`
}

// Kinds of repair.
const (
	RepairSyntheticResult  = "synthetic_result"       // a tool call with no result got an is_error one
	RepairMovedResult      = "moved_result"           // a result recorded later was moved next to its call
	RepairOrphanResult     = "dropped_orphan_result"  // a result with no call before it was left out
	RepairDuplicateToolUse = "dropped_duplicate_call" // a tool call repeating an id was left out
	RepairUnsignedThinking = "dropped_unsigned_thinking"
	RepairEmptyBlock       = "dropped_empty_block"
	RepairEmptyMessage     = "dropped_empty_message"
	RepairMerged           = "merged_messages" // consecutive messages of one role became one
	RepairMisplacedBlock   = "dropped_misplaced_block"
	RepairForeignBlock     = "dropped_foreign_block" // a type the API does not take: Codex's reasoning, a plug-in's record
	RepairStrippedFields   = "stripped_fields"       // fields the API does not take left out of a block
	RepairLeadingUser      = "added_leading_user"
)

// interruptedResult is the content of the result given to a tool call that has none.
const interruptedResult = "The tool call was interrupted before it returned a result; no result was recorded."

// repairer makes a draft valid: alternating roles, every tool call answered in the next
// message, no result without its call, no empty block or message, no unsigned thinking.
type repairer struct {
	msgs    []*ctxMessage
	repairs []Repair
}

// repair returns msgs made valid and the repairs it took.
func repair(msgs []*ctxMessage) ([]*ctxMessage, []Repair) {
	r := &repairer{msgs: msgs}
	r.clean()
	for pass := 0; pass < 4; pass++ {
		r.merge()
		if !r.pair() {
			break
		}
	}
	if len(r.msgs) > 0 && r.msgs[0].role != "user" {
		r.msgs = append([]*ctxMessage{userText("(The conversation continues from here.)")}, r.msgs...)
		r.note(RepairLeadingUser, -1, "")
	}
	return r.msgs, r.repairs
}

func (r *repairer) note(kind string, seq int64, id string) {
	r.repairs = append(r.repairs, Repair{Kind: kind, Seq: seq, ToolUseID: id})
}

// clean drops blocks the APIs refuse and messages left empty.
func (r *repairer) clean() {
	seen := map[string]bool{}
	out := r.msgs[:0]
	for _, m := range r.msgs {
		c := *m
		c.blocks = make([][]byte, 0, len(m.blocks))
		for _, raw := range m.blocks {
			if keep, ok := r.cleanBlock(&c, raw, seen); ok {
				c.blocks = append(c.blocks, keep)
			}
		}
		if len(c.blocks) == 0 {
			r.note(RepairEmptyMessage, m.seq, "")
			continue
		}
		out = append(out, &c)
	}
	r.msgs = out
}

// cleanBlock returns the block as the context sends it, or false to leave it out.
func (r *repairer) cleanBlock(m *ctxMessage, raw []byte, seen map[string]bool) ([]byte, bool) {
	b, ok := tokens.DecodeBlock(raw)
	if !ok {
		return raw, true
	}
	drop := func(kind, id string) ([]byte, bool) {
		r.note(kind, m.seq, id)
		m.tokens -= blockTokens(raw)
		return nil, false
	}
	if !blocks.IsAPIBlockType(b.Type) {
		return drop(RepairForeignBlock, "")
	}
	switch b.Type {
	case blocks.BlockText:
		if strings.TrimSpace(b.Text) == "" {
			return drop(RepairEmptyBlock, "")
		}
	case blocks.BlockThinking:
		if b.Signature == nil || *b.Signature == "" {
			return drop(RepairUnsignedThinking, "")
		}
	case blocks.BlockToolUse:
		if m.role != "assistant" {
			return drop(RepairMisplacedBlock, b.ID)
		}
		if seen[b.ID] {
			return drop(RepairDuplicateToolUse, b.ID)
		}
		seen[b.ID] = true
	case blocks.BlockToolResult:
		if m.role != "user" {
			return drop(RepairMisplacedBlock, b.ToolUseID)
		}
	}
	if keep, stripped := blocks.APIBlockJSON(b.Type, raw); stripped {
		r.note(RepairStrippedFields, m.seq, b.ID)
		return keep, true
	}
	return raw, true
}

// blockTokens counts one block as countMessage does.
func blockTokens(raw []byte) int64 {
	b, ok := tokens.DecodeBlock(raw)
	if !ok {
		return tokens.CountText(string(raw)) + tokens.BlockOverhead
	}
	full, _ := b.Count(raw, tokens.ToolNames{})
	return full
}

// merge joins consecutive messages of one role; in a user message, tool results come
// first, as the Anthropic API wants.
func (r *repairer) merge() {
	out := r.msgs[:0]
	for _, m := range r.msgs {
		if n := len(out); n > 0 && out[n-1].role == m.role {
			prev := *out[n-1]
			prev.blocks = append(append([][]byte(nil), prev.blocks...), m.blocks...)
			prev.tokens += m.tokens - tokens.MessageOverhead
			prev.pruned = prev.pruned || m.pruned
			out[n-1] = &prev
			r.note(RepairMerged, m.seq, "")
			continue
		}
		out = append(out, m)
	}
	for _, m := range out {
		if m.role == "user" {
			resultsFirst(m)
		}
	}
	r.msgs = out
}

// resultsFirst moves a user message's tool results before its other blocks.
func resultsFirst(m *ctxMessage) {
	var results, rest [][]byte
	for _, raw := range m.blocks {
		if blockType(raw) == blocks.BlockToolResult {
			results = append(results, raw)
		} else {
			rest = append(rest, raw)
		}
	}
	if len(results) > 0 && len(rest) > 0 {
		m.blocks = append(results, rest...)
	}
}

func blockType(raw []byte) string {
	var t struct {
		Type string `json:"type"`
	}
	json.Unmarshal(raw, &t)
	return t.Type
}
