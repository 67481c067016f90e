package sqlite

import (
	"bytes"
	"database/sql/driver"

	"github.com/goccy/go-json"
	"modernc.org/sqlite"
)

// searchedText returns the text a message body is searched by (body_search, through the
// view body_search_text), nil when it has none: the body's content blocks, each as
// blockText takes a block row (a text block's text; a tool_use's name, a space and its
// input's JSON; a tool_result's content when it is a string, else the text of its first
// searchedContentBlocks blocks joined by spaces), joined by spaces. Thinking, signatures
// and media are not searched. A body that is not JSON, packed or plain, has no text.
//
// It is computed in Go because SQLite's JSON functions, which the view used before
// migration 13, parsed every body once to validate it, again to walk its content, and each
// block again per field: on the real transcripts that was a third of indexing an import.
//
// The index is external content: FTS5 deletes a row by the text the view gives for it
// then, so searchedText must give the same text for the same body for as long as the
// index holds it. A change to what it returns needs a migration that re-indexes the bodies
// (as searchTextMigration does).
func searchedText(stored []byte) []byte {
	body, err := unpackBody(nil, stored)
	if err != nil {
		return nil
	}
	var b struct {
		Message struct {
			Content []searchedBlock `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(body, &b) != nil {
		return nil
	}
	var text []byte
	for i := range b.Message.Content {
		text = b.Message.Content[i].appendText(text)
	}
	return text
}

// searchedBlock is the part of a content block searchedText reads.
type searchedBlock struct {
	Type    string          `json:"type"`
	Text    json.RawMessage `json:"text"`
	Name    json.RawMessage `json:"name"`
	Input   json.RawMessage `json:"input"`
	Content json.RawMessage `json:"content"`
}

// appendText appends the block's searched text to text, after a space when text is not
// empty; a block with none leaves text as it is.
func (b *searchedBlock) appendText(text []byte) []byte {
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

// appendResultTexts appends the text fields of the first searchedContentBlocks blocks of
// a tool_result's content array, each after a space.
func appendResultTexts(text, content []byte) []byte {
	var blocks []struct {
		Text json.RawMessage `json:"text"`
	}
	if len(content) == 0 || content[0] != '[' || json.Unmarshal(content, &blocks) != nil {
		return text
	}
	for i := range blocks[:min(len(blocks), searchedContentBlocks)] {
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

// searchedTextSQL is searched_text(body) in SQL: NULL for a NULL body or one without text.
func searchedTextSQL(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	text := searchedText(asBytes(args[0]))
	if len(text) == 0 {
		return nil, nil
	}
	return string(text), nil
}

// init gives the store's connections searched_text, beside unpack_body.
func init() {
	if err := storeDriver.RegisterDeterministicScalarFunction("searched_text", 1, searchedTextSQL); err != nil {
		panic(err) // only a second registration of the same name fails
	}
}
