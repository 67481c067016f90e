// Package searchtext holds the one rule for the text a content block is searched by, which
// both stores index: a text block's text; a tool_use's name, a space and its input's JSON;
// a tool_result's content when it is a string, else the text of its first ContentBlocks
// blocks joined by spaces. Thinking, signatures and media are not searched. A stored
// message body is searched by the text of its blocks (OfBody).
package searchtext

import (
	"bytes"

	"github.com/goccy/go-json"
)

// ContentBlocks is how many blocks of a tool_result's content array are searched.
const ContentBlocks = 16

// Block is the part of a content block's JSON that search reads.
type Block struct {
	Type    string          `json:"type"`
	Text    json.RawMessage `json:"text"`
	Name    json.RawMessage `json:"name"`
	Input   json.RawMessage `json:"input"`
	Content json.RawMessage `json:"content"`
}

// OfBlock returns the searched text of one block's JSON, nil when it has none or is not JSON.
func OfBlock(block []byte) []byte {
	var b Block
	if json.Unmarshal(block, &b) != nil {
		return nil
	}
	return b.AppendText(nil)
}

// AppendText appends the block's searched text to text, after a space when text is not
// empty; a block with none leaves text as it is.
func (b *Block) AppendText(text []byte) []byte {
	switch b.Type {
	case "text":
		if s, ok := jsonString(b.Text); ok {
			return joinSpaced(text, s)
		}
	case "tool_use":
		if name, ok := jsonString(b.Name); ok {
			text = joinSpaced(text, name)
			return append(append(text, ' '), b.Input...)
		}
	case "tool_result":
		if s, ok := jsonString(b.Content); ok {
			return joinSpaced(text, s)
		}
		return appendResultTexts(text, b.Content)
	}
	return text
}

// appendResultTexts appends the text fields of the first ContentBlocks blocks of a
// tool_result's content array, each after a space.
func appendResultTexts(text, content []byte) []byte {
	var blocks []struct {
		Text json.RawMessage `json:"text"`
	}
	if len(content) == 0 || content[0] != '[' || json.Unmarshal(content, &blocks) != nil {
		return text
	}
	for i := range blocks[:min(len(blocks), ContentBlocks)] {
		if s, ok := jsonString(blocks[i].Text); ok {
			text = joinSpaced(text, s)
		}
	}
	return text
}

// jsonString decodes raw when it is a JSON string.
func jsonString(raw json.RawMessage) ([]byte, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return nil, false
	}
	if bytes.IndexByte(raw, '\\') < 0 { // nothing escaped: the bytes between the quotes
		return raw[1 : len(raw)-1], true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

// joinSpaced appends s to text, after a space when text is not empty; an empty s adds
// nothing.
func joinSpaced(text, s []byte) []byte {
	if len(s) == 0 {
		return text
	}
	if len(text) > 0 {
		text = append(text, ' ')
	}
	return append(text, s...)
}
