package contextbuild

import (
	"bytes"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// ctxMessage is one message of a context being built: a stored message (Seq ≥ 0), maybe
// pruned, or one the builder made (a summary, the session state, a synthetic result).
type ctxMessage struct {
	seq    int64 // -1 when made by the builder
	turn   int64
	role   string
	typ    string
	status string
	blocks [][]byte
	tokens int64 // raw units of the message as it stands
	pruned bool  // old tool outputs shortened or thinking dropped
	extra  []byte
}

// draft is what a strategy proposes: the messages, and what they stand for.
type draft struct {
	messages   []*ctxMessage
	included   int64 // stored messages included, verbatim or pruned
	summarized int64 // stored messages represented by a summary or the session state
	pruned     int64 // stored messages included pruned
	summary    *Summary
	omitted    Omission // stored messages neither sent nor summarized
}

// fromStored copies a stored message for the builder; the store's slices are valid only
// during its scan.
func fromStored(m *tokens.ContextMessage) *ctxMessage {
	blocks := make([][]byte, len(m.Blocks))
	for i, b := range m.Blocks {
		blocks[i] = bytes.Clone(b)
	}
	return &ctxMessage{seq: m.Seq, turn: m.Turn, role: m.Role, typ: m.Type, status: m.Status,
		blocks: blocks, tokens: m.Count.Tokens, extra: bytes.Clone(m.Extra)}
}

// userText is a message the builder makes: one text block from the user.
func userText(text string) *ctxMessage {
	b := blocks.MustJSON(blocks.TextBlock{Type: blocks.BlockText, Text: text})
	return &ctxMessage{seq: -1, turn: -1, role: "user", typ: session.TypeUser, blocks: [][]byte{b},
		tokens: tokens.MessageOverhead + tokens.BlockOverhead + tokens.CountText(text)}
}

// recount counts the message again from its blocks, after the builder changed them.
func (m *ctxMessage) recount() {
	m.tokens = tokens.CountMessage(m.role, "", m.blocks, nil, tokens.ToolNames{}).Tokens
}

// pruneMessage returns the message as an old turn is sent by pruned-tools: tool outputs
// shortened by the kind of tool, long strings in tool inputs cut, thinking dropped.
// names maps the tool_use ids seen so far to tool names.
func pruneMessage(m *ctxMessage, stored tokens.TokenCount, names tokens.ToolNames) *ctxMessage {
	out := *m
	out.blocks = make([][]byte, 0, len(m.blocks))
	changed, results := false, false // results: a result pruned without its call's name
	for _, raw := range m.blocks {
		b, ok := tokens.DecodeBlock(raw)
		if !ok {
			out.blocks = append(out.blocks, raw)
			continue
		}
		switch b.Type {
		case blocks.BlockThinking, blocks.BlockRedactedThinking:
			changed = true
			continue
		case blocks.BlockToolUse:
			names[b.ID] = b.Name
			if input, cut := tokens.PruneToolInput(b.Input); cut {
				raw, changed = toolUseJSONOf(b, input), true
			}
		case blocks.BlockToolResult:
			name, known := names[b.ToolUseID]
			if text := tokens.PruneToolResult(b.Content, name); !resultIs(b.Content, text) {
				raw, changed = blocks.ToolResultJSON(b.ToolUseID, blocks.MustJSON(text), b.IsError), true
				results = results || !known
			}
		}
		out.blocks = append(out.blocks, raw)
	}
	if !changed {
		return m
	}
	out.pruned = true
	out.tokens = stored.Pruned
	// The stored count pruned each result by the name of its call; when the call is not
	// among the messages read, the result was pruned here without it: count what is sent.
	if results {
		out.recount()
	}
	return &out
}

// resultIs reports whether a tool result's content is the string text already.
func resultIs(content json.RawMessage, text string) bool {
	var s string
	return len(content) > 0 && content[0] == '"' && json.Unmarshal(content, &s) == nil && s == text
}

// toolUseJSONOf writes a tool_use block with the fields the APIs accept, and input.
func toolUseJSONOf(b tokens.Block, input json.RawMessage) []byte {
	out, ok := blocks.ToolUseBlockJSON(b.ID, b.Name, input)
	if !ok {
		out, _ = blocks.ToolUseBlockJSON(b.ID, b.Name, []byte("{}"))
	}
	return out
}
