package blocks

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// The block types sessionkeep knows by name (the Anthropic Messages API's). Any other type
// is kept verbatim.
const (
	BlockText             = "text"
	BlockToolUse          = "tool_use"
	BlockToolResult       = "tool_result"
	BlockThinking         = "thinking"
	BlockRedactedThinking = "redacted_thinking"
	BlockImage            = "image"
	BlockDocument         = "document"
)

// BlockInfo is what the domain needs to know of a block beyond its JSON.
type BlockInfo struct {
	Type      string
	ToolUseID string // the id of a tool_use, or the tool_use_id a tool_result answers
}

// CheckBlock validates one block's JSON: an object with a string "type" and, for the
// known types, their required fields with the right JSON types.
func CheckBlock(raw []byte) (BlockInfo, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return BlockInfo{}, fmt.Errorf("a block must be a JSON object")
	}
	f := Fields(fields)
	typ, err := f.RequireString("type")
	if err != nil {
		return BlockInfo{}, err
	}
	info := BlockInfo{Type: typ}
	switch typ {
	case BlockText:
		_, err = f.RequireString("text")
	case BlockToolUse:
		if info.ToolUseID, err = f.RequireString("id"); err == nil {
			if _, err = f.RequireString("name"); err == nil {
				err = f.RequireObject("input")
			}
		}
	case BlockToolResult:
		if info.ToolUseID, err = f.RequireString("tool_use_id"); err == nil {
			if err = f.optional("content", '"', '['); err == nil {
				err = f.optionalBool("is_error")
			}
		}
	case BlockThinking:
		if _, err = f.RequireString("thinking"); err == nil {
			err = f.optional("signature", '"')
		}
	case BlockRedactedThinking:
		_, err = f.RequireString("data")
	case BlockImage, BlockDocument:
		err = f.requireObjectWithType("source")
	}
	if err != nil {
		return BlockInfo{}, fmt.Errorf("%s block: %w", typ, err)
	}
	return info, nil
}

// CheckToolResultContent accepts a JSON string or an array of valid blocks.
func CheckToolResultContent(content []byte) error {
	switch {
	case len(content) > 0 && content[0] == '"' && validString(content):
		return nil
	case len(content) > 0 && content[0] == '[':
		var items []json.RawMessage
		if err := json.Unmarshal(content, &items); err != nil {
			return errors.New("must be a string or an array of blocks")
		}
		for i, b := range items {
			if _, err := CheckBlock(b); err != nil {
				return fmt.Errorf("block %d: %w", i, err)
			}
		}
		return nil
	}
	return errors.New("must be a string or an array of blocks")
}

// Fields is a block decoded one level deep, for checking field types.
type Fields map[string]json.RawMessage

// RequireObject checks that field name is present and a JSON object.
func (f Fields) RequireObject(name string) error {
	if v, ok := f[name]; !ok || len(v) == 0 || v[0] != '{' {
		return fmt.Errorf("field %q must be an object", name)
	}
	return nil
}

// RequireString returns field name, which must be present and a JSON string.
func (f Fields) RequireString(name string) (string, error) {
	v, ok := f[name]
	if !ok || len(v) == 0 || v[0] != '"' {
		return "", fmt.Errorf("field %q must be a string", name)
	}
	var s string
	err := json.Unmarshal(v, &s)
	return s, err
}

// optional checks that a present, non-null field starts with one of the allowed JSON
// first bytes ('"' string, '[' array, '{' object).
func (f Fields) optional(name string, allowed ...byte) error {
	v, ok := f[name]
	if !ok || bytes.Equal(v, []byte("null")) {
		return nil
	}
	if len(v) > 0 && bytes.IndexByte(allowed, v[0]) >= 0 {
		return nil
	}
	return fmt.Errorf("field %q has the wrong type", name)
}

func (f Fields) optionalBool(name string) error {
	v, ok := f[name]
	if !ok || bytes.Equal(v, []byte("true")) || bytes.Equal(v, []byte("false")) || bytes.Equal(v, []byte("null")) {
		return nil
	}
	return fmt.Errorf("field %q must be a boolean", name)
}

func (f Fields) requireObjectWithType(name string) error {
	v, ok := f[name]
	if !ok || len(v) == 0 || v[0] != '{' {
		return fmt.Errorf("field %q must be an object", name)
	}
	var source Fields
	if err := json.Unmarshal(v, &source); err != nil {
		return fmt.Errorf("field %q: %w", name, err)
	}
	if _, err := source.RequireString("type"); err != nil {
		return fmt.Errorf("field %q: %w", name, err)
	}
	return nil
}

// The JSON shapes of the blocks the assembler builds.
type (
	TextBlock struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	ThinkingBlock struct {
		Type      string  `json:"type"`
		Thinking  string  `json:"thinking"`
		Signature *string `json:"signature,omitempty"`
	}
	RedactedThinkingBlock struct {
		Type string `json:"type"`
		Data string `json:"data"`
	}
	toolUseBlock struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
		// RawInput and InputError mark streamed input that was not valid JSON when its block
		// ended: the text is kept as it came, and Input is an empty object.
		RawInput   *string `json:"raw_input,omitempty"`
		InputError string  `json:"input_error,omitempty"`
	}
)

// MustJSON encodes one of the block shapes above, which cannot fail to encode.
func MustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("blocks: encoding %T: %v", v, err))
	}
	return b
}

// ToolUseJSON builds a tool_use block from streamed input text. Empty input is an empty
// object (the API streams "" for a tool without arguments); input that is not valid JSON
// is kept as raw_input, never dropped.
func ToolUseJSON(id, name, input string) []byte {
	if len(bytes.TrimSpace([]byte(input))) == 0 {
		input = "{}"
	}
	if b, ok := ToolUseBlockJSON(id, name, []byte(input)); ok {
		return b
	}
	return MustJSON(toolUseBlock{Type: BlockToolUse, ID: id, Name: name, Input: json.RawMessage("{}"),
		RawInput: &input, InputError: "streamed input is not valid JSON"})
}

// ToolUseBlockJSON writes a tool_use block around input; ok is false when input is not
// valid JSON. Compacting the input validates and copies it in one pass.
func ToolUseBlockJSON(id, name string, input []byte) (block []byte, ok bool) {
	head := jsonenc.AppendString([]byte(`{"type":"tool_use","id":`), id)
	head = jsonenc.AppendString(append(head, `,"name":`...), name)
	buf := bytes.NewBuffer(append(head, `,"input":`...))
	buf.Grow(len(input) + 1)
	if json.Compact(buf, input) != nil {
		return nil, false
	}
	buf.WriteByte('}')
	return buf.Bytes(), true
}

// ToolResultJSON writes a tool_result block around content, JSON the caller has validated
// (see CheckToolResultContent), so a large tool output is copied once, not scanned again.
func ToolResultJSON(toolUseID string, content []byte, isError bool) []byte {
	buf := make([]byte, 0, len(content)+len(toolUseID)+64)
	buf = jsonenc.AppendString(append(buf, `{"type":"tool_result","tool_use_id":`...), toolUseID)
	buf = append(append(buf, `,"content":`...), content...)
	buf = strconv.AppendBool(append(buf, `,"is_error":`...), isError)
	return append(buf, '}')
}

// RetypeToolUse gives a tool_use block the type typ (server_tool_use, mcp_tool_use, …).
func RetypeToolUse(toolUse []byte, typ string) []byte {
	const prefix = `{"type":"tool_use"`
	if typ == BlockToolUse || !bytes.HasPrefix(toolUse, []byte(prefix)) {
		return toolUse
	}
	return append(jsonenc.AppendString([]byte(`{"type":`), typ), toolUse[len(prefix):]...)
}

// bigJSON is the size from which validString checks with encoding/json, which reads its
// input where it is: go-json's Valid copies it first (a second 100 MB for a 100 MB tool
// output), which only pays on small inputs.
const bigJSON = 1 << 20

// validString reports whether content, which starts with a quote, is one valid JSON value.
func validString(content []byte) bool {
	if len(content) >= bigJSON {
		return stdjson.Valid(content)
	}
	return json.Valid(content)
}
