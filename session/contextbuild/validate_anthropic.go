package contextbuild

import (
	"regexp"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// toolUseIDPattern is what the Messages API accepts as a tool_use id.
var toolUseIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// anthropic checks the Messages API's rules: user first, roles alternating, only role and
// content, no empty content, each tool_use answered by a tool_result in the next message
// (results first), no result without its call, thinking passed back with its signature.
func (v *validator) anthropic(msgs []rawMessage) {
	seen := map[string]bool{}
	var calls map[string]bool // tool_use ids of the message before
	prevRole := ""
	for i, m := range msgs {
		role, list, ok := v.anthropicMessage(i, m, i == len(msgs)-1)
		if !ok {
			prevRole, calls = "", nil
			continue
		}
		if i == 0 && role != "user" {
			v.add(i, ProblemFirstNotUser, "the first message must be from the user, not %q", role)
		}
		if role == prevRole {
			v.add(i, ProblemRolesNotAlternate, "two %s messages in a row: roles must alternate", role)
		}
		if role == "user" {
			v.anthropicResults(i, list, calls)
			calls = nil
		} else {
			if len(calls) > 0 {
				v.add(i-1, ProblemMissingToolResult, "tool_use %s has no tool_result in the next message", firstKey(calls))
			}
			calls = v.anthropicCalls(i, list, seen)
		}
		prevRole = role
	}
	if len(calls) > 0 {
		v.add(len(msgs)-1, ProblemMissingToolResult, "tool_use %s has no tool_result after it", firstKey(calls))
	}
}

// anthropicMessage checks one message's fields and returns its role and blocks.
func (v *validator) anthropicMessage(i int, m rawMessage, last bool) (string, []tokens.Block, bool) {
	if m == nil {
		v.add(i, ProblemInvalidMessage, "a message must be an object")
		return "", nil, false
	}
	role, _ := m.str("role")
	if role != "user" && role != "assistant" {
		v.add(i, ProblemInvalidRole, "role must be \"user\" or \"assistant\"")
		return "", nil, false
	}
	for k := range m {
		if k != "role" && k != "content" {
			v.add(i, ProblemUnexpectedField, "field %q is not part of a Messages API message; send only role and content", k)
		}
	}
	if text, ok := m.str("content"); ok {
		if strings.TrimSpace(text) == "" && !(last && role == "assistant") {
			v.add(i, ProblemEmptyContent, "content must not be empty")
		}
		return role, nil, true
	}
	var raws []json.RawMessage
	if json.Unmarshal(m["content"], &raws) != nil || raws == nil {
		v.add(i, ProblemInvalidMessage, "content must be a string or an array of blocks")
		return role, nil, false
	}
	if len(raws) == 0 && !(last && role == "assistant") {
		v.add(i, ProblemEmptyContent, "content must not be empty")
	}
	return role, v.anthropicBlocks(i, role, raws), true
}

// anthropicBlocks checks each block on its own.
func (v *validator) anthropicBlocks(i int, role string, raws []json.RawMessage) []tokens.Block {
	list := make([]tokens.Block, 0, len(raws))
	for _, raw := range raws {
		b, ok := tokens.DecodeBlock(raw)
		if !ok {
			v.add(i, ProblemInvalidBlock, "a block must be an object with a string type")
			continue
		}
		v.anthropicBlockFields(i, b.Type, raw)
		switch {
		case !blocks.IsAPIBlockType(b.Type):
			v.add(i, ProblemInvalidBlock, "the Messages API does not take a %s block", b.Type)
		case b.Type == blocks.BlockText && strings.TrimSpace(b.Text) == "":
			v.add(i, ProblemEmptyText, "text list must hold non-whitespace text")
		case b.Type == blocks.BlockThinking && (b.Signature == nil || *b.Signature == ""):
			v.add(i, ProblemUnsignedThinking, "a thinking block must be passed back with its signature")
		case (b.Type == blocks.BlockToolUse || b.Type == blocks.BlockThinking || b.Type == blocks.BlockRedactedThinking) && role != "assistant",
			b.Type == blocks.BlockToolResult && role != "user":
			v.add(i, ProblemMisplacedBlock, "a %s block cannot be in a %s message", b.Type, role)
		}
		list = append(list, b)
	}
	return list
}

// anthropicBlockFields reports each field of a block that the Messages API does not take.
func (v *validator) anthropicBlockFields(i int, typ string, raw json.RawMessage) {
	if !blocks.IsAPIBlockType(typ) {
		return
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return
	}
	for name := range fields {
		if !blocks.APIBlockTakes(typ, name) {
			v.add(i, ProblemUnexpectedField, "field %q is not part of a %s block; the Messages API refuses it", name, typ)
		}
	}
}

// anthropicCalls checks an assistant message's tool calls and returns their ids.
func (v *validator) anthropicCalls(i int, list []tokens.Block, seen map[string]bool) map[string]bool {
	calls := map[string]bool{}
	for _, b := range list {
		if b.Type != blocks.BlockToolUse {
			continue
		}
		switch {
		case !toolUseIDPattern.MatchString(b.ID):
			v.add(i, ProblemInvalidToolUseID, "tool_use id %q must match [a-zA-Z0-9_-]+", b.ID)
		case seen[b.ID]:
			v.add(i, ProblemDuplicateToolUse, "tool_use id %s is used twice", b.ID)
		}
		if len(b.Input) == 0 || b.Input[0] != '{' {
			v.add(i, ProblemInvalidBlock, "tool_use %s: input must be an object", b.ID)
		}
		seen[b.ID] = true
		calls[b.ID] = true
	}
	return calls
}

// anthropicResults checks a user message's results against the calls before it.
func (v *validator) anthropicResults(i int, list []tokens.Block, calls map[string]bool) {
	answered := map[string]bool{}
	other := false
	for _, b := range list {
		if b.Type != blocks.BlockToolResult {
			other = true
			continue
		}
		switch {
		case other:
			v.add(i, ProblemResultNotFirst, "tool_result %s must come before the message's other blocks", b.ToolUseID)
		case answered[b.ToolUseID]:
			v.add(i, ProblemDuplicateResult, "tool_use %s is answered twice", b.ToolUseID)
		case !calls[b.ToolUseID]:
			v.add(i, ProblemOrphanToolResult, "tool_result %s answers no tool_use of the message before", b.ToolUseID)
		}
		answered[b.ToolUseID] = true
	}
	for id := range calls {
		if !answered[id] {
			v.add(i, ProblemMissingToolResult, "tool_use %s has no tool_result in this message", id)
		}
	}
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}
