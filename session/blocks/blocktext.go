package blocks

import (
	"strings"

	"github.com/goccy/go-json"
)

// blockView is the fields of a block that its text for people is made of.
type blockView struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Title     string          `json:"title"`
	ToolUseID string          `json:"tool_use_id"`
}

// BlocksText renders a message's blocks as one line of plain text for a prompt: text as it
// is, tool calls and results in brackets, media by kind. Thinking is left out: it was the
// model's, not the conversation's.
func BlocksText(blocks [][]byte) string {
	parts := make([]string, 0, len(blocks))
	for _, raw := range blocks {
		if t := blockText(raw); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

func blockText(raw []byte) string {
	var b blockView
	if json.Unmarshal(raw, &b) != nil {
		return ""
	}
	switch b.Type {
	case BlockText:
		return b.Text
	case BlockThinking, BlockRedactedThinking:
		return ""
	case BlockToolUse:
		return "[tool_use " + b.Name + " " + string(b.Input) + "]"
	case BlockToolResult:
		label := "[tool_result "
		if b.IsError {
			label = "[tool_result error "
		}
		return label + contentText(b.Content) + "]"
	case "document":
		return strings.TrimSpace("[document " + b.Title + "]")
	}
	return "[" + b.Type + "]"
}

// contentText is a tool result's content as text: the string, or its blocks' text.
func contentText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []json.RawMessage
	if json.Unmarshal(content, &blocks) != nil {
		return ""
	}
	parts := make([][]byte, len(blocks))
	for i, b := range blocks {
		parts[i] = b
	}
	return BlocksText(parts)
}
