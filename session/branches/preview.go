package branches

import (
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// previewLength is how many characters of a record a tree node shows.
const previewLength = 80

// preview returns a one-line glimpse of a record's blocks for a history view: its first
// text, else what its first block is ("[tool_use Bash]", "[tool_result] output…").
func preview(list [][]byte) string {
	var first string
	for _, raw := range list {
		var b struct {
			Type    string          `json:"type"`
			Text    string          `json:"text"`
			Name    string          `json:"name"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &b) != nil {
			continue
		}
		if b.Type == blocks.BlockText && strings.TrimSpace(b.Text) != "" {
			return clip(b.Text)
		}
		if first != "" {
			continue
		}
		switch b.Type {
		case blocks.BlockToolUse:
			first = "[tool_use " + b.Name + "]"
		case blocks.BlockToolResult:
			first = clip("[tool_result] " + resultText(b.Content))
		default:
			first = "[" + b.Type + "]"
		}
	}
	return first
}

// resultText returns the text of a tool_result's content: a string, or its text blocks.
func resultText(content json.RawMessage) string {
	var text string
	if json.Unmarshal(content, &text) == nil {
		return text
	}
	var list []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(content, &list)
	var parts []string
	for _, b := range list {
		if b.Type == blocks.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, " ")
}

// clip collapses text's white space onto one line and cuts it to previewLength characters.
func clip(text string) string {
	line := strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(line) <= previewLength {
		return line
	}
	return string([]rune(line)[:previewLength-1]) + "…"
}
