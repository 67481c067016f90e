package postgres

import (
	"strings"

	"github.com/goccy/go-json"
)

// searchedContentBlocks is how many blocks of a tool_result's content array are searched,
// as on SQLite.
const searchedContentBlocks = 16

// searchBlock is the part of a block's JSON that search reads.
type searchBlock struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
	Content json.RawMessage `json:"content"`
}

// searchText is the searchable text of a block, the same as the SQLite backend indexes:
// a text block's text, a tool_use's name and input, a tool_result's text content. Thinking,
// signatures and media are not searched; a body that is not JSON has no text.
func searchText(block []byte) (string, bool) {
	text, ok := blockText(block)
	// PostgreSQL text cannot hold NUL, which JSON can ("\u0000"); it separates words anyway.
	return strings.ReplaceAll(text, "\x00", " "), ok
}

// blockText is searchText before NULs are replaced.
func blockText(block []byte) (string, bool) {
	var b searchBlock
	if json.Unmarshal(block, &b) != nil {
		return "", false
	}
	switch b.Type {
	case "text":
		return b.Text, true
	case "tool_use":
		return b.Name + " " + string(b.Input), true
	case "tool_result":
		return contentText(b.Content)
	}
	return "", false
}

// contentText is the text of a tool_result's content: a string, or the text blocks of an
// array (the first searchedContentBlocks of it).
func contentText(content json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s, true
	}
	var parts []searchBlock
	if json.Unmarshal(content, &parts) != nil {
		return "", false
	}
	var texts []string
	for i, p := range parts {
		if i == searchedContentBlocks {
			break
		}
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, " "), len(texts) > 0
}
