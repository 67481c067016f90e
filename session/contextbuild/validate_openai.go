package contextbuild

import (
	"slices"

	"github.com/goccy/go-json"
)

// openAI checks the Chat Completions rules: known roles, content where it is required,
// well-formed tool_calls with unique ids, each answered by a "tool" message before any
// other message, and no tool message without its call.
func (v *validator) openAI(msgs []rawMessage) {
	seen := map[string]bool{}
	var pending map[string]bool // calls of the last assistant message not answered yet
	for i, m := range msgs {
		if m == nil {
			v.add(i, ProblemInvalidMessage, "a message must be an object")
			continue
		}
		role, _ := m.str("role")
		if role != "tool" && len(pending) > 0 {
			v.add(i, ProblemMissingToolResult, "tool call %s is not answered by a tool message before this one", firstKey(pending))
			pending = nil
		}
		switch role {
		case "system", "developer", "user":
			v.openAIContent(i, role, m, false)
		case "assistant":
			pending = v.openAIAssistant(i, m, seen)
		case "tool":
			id, _ := m.str("tool_call_id")
			if !pending[id] {
				v.add(i, ProblemOrphanToolResult, "tool message %q answers no pending tool call of the assistant message before", id)
			}
			delete(pending, id)
			v.openAIContent(i, role, m, false)
		default:
			v.add(i, ProblemInvalidRole, "role must be system, developer, user, assistant or tool")
		}
	}
	if len(pending) > 0 {
		v.add(len(msgs)-1, ProblemMissingToolResult, "tool call %s has no tool message after it", firstKey(pending))
	}
}

// partTypes are the content part types each role may send.
var partTypes = map[string][]string{
	"user":      {"text", "image_url", "input_audio", "file"},
	"system":    {"text"},
	"developer": {"text"},
	"assistant": {"text", "refusal"},
	"tool":      {"text"},
}

// openAIContent checks content: a non-empty string, or a non-empty array of the parts the
// role may send.
func (v *validator) openAIContent(i int, role string, m rawMessage, optional bool) {
	c, ok := m["content"]
	if !ok || string(c) == "null" {
		if !optional {
			v.add(i, ProblemEmptyContent, "content is required")
		}
		return
	}
	if s, isString := m.str("content"); isString {
		if s == "" && !optional {
			v.add(i, ProblemEmptyContent, "content must not be empty")
		}
		return
	}
	var parts []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(c, &parts) != nil || (len(parts) == 0 && !optional) {
		v.add(i, ProblemEmptyContent, "content must be a string or a non-empty array of parts")
	}
	for _, p := range parts {
		if !slices.Contains(partTypes[role], p.Type) {
			v.add(i, ProblemInvalidBlock, "a %s message cannot hold a %q part", role, p.Type)
		}
	}
}

// openAIAssistant checks an assistant message and returns its tool call ids.
func (v *validator) openAIAssistant(i int, m rawMessage, seen map[string]bool) map[string]bool {
	var calls []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function *struct {
			Name      *string `json:"name"`
			Arguments *string `json:"arguments"`
		} `json:"function"`
	}
	if raw, ok := m["tool_calls"]; ok && json.Unmarshal(raw, &calls) != nil {
		v.add(i, ProblemInvalidToolCall, "tool_calls must be an array of tool calls")
	}
	v.openAIContent(i, "assistant", m, len(calls) > 0)
	pending := map[string]bool{}
	for _, c := range calls {
		switch {
		case c.ID == "" || c.Type != "function" || c.Function == nil || c.Function.Name == nil || c.Function.Arguments == nil:
			v.add(i, ProblemInvalidToolCall, "a tool call needs an id, type \"function\" and a function with name and arguments")
		case !json.Valid([]byte(*c.Function.Arguments)):
			v.add(i, ProblemInvalidToolCall, "tool call %s: arguments must be a JSON string", c.ID)
		case seen[c.ID]:
			v.add(i, ProblemDuplicateToolUse, "tool call id %s is used twice", c.ID)
		}
		seen[c.ID] = true
		pending[c.ID] = true
	}
	return pending
}
