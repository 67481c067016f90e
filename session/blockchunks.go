package session

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// The chunks in this file carry what the delta chunks cannot: a block that arrives whole
// (a server tool's result, an OpenAI reasoning item), a block whose content streams but
// that has fields of its own (a tool_use with a caller, a server_tool_use), and fields
// that arrive while a block streams (citations). Whatever they carry is kept verbatim.

// blockExt is what a block streaming has beyond its kind: its type when that differs
// from the kind (a server_tool_use streams its input as a tool_use does), the fields it
// has beside the streamed ones, and the input it started with.
type blockExt struct {
	typ    string
	fields []extField // sorted by name, so a block always renders the same
	input  []byte     // the input given at block_start, kept when no input streams
}

type extField struct {
	name  string
	value json.RawMessage
}

// streamedFields are, per kind, the fields the assembler writes itself; block_start takes
// their starting values from the block, and block_fields may not set them.
var streamedFields = map[string][]string{
	blocks.BlockText:     {"type", "text"},
	blocks.BlockThinking: {"type", "thinking", "signature"},
	blocks.BlockToolUse:  {"type", "id", "name", "input", "raw_input", "input_error"},
}

// blockType is the type the block is recorded with.
func (b *openBlock) blockType() string {
	if b.ext != nil {
		return b.ext.typ
	}
	return b.kind
}

// openBlockFrom makes the block streaming from a block_start block: a text or thinking
// block, or a block whose input streams (tool_use, server_tool_use, mcp_tool_use, …).
func openBlockFrom(raw []byte) (*openBlock, error) {
	fields, err := decodeFields(raw)
	if err != nil {
		return nil, err
	}
	f := blocks.Fields(fields)
	typ, err := f.RequireString("type")
	if err != nil {
		return nil, err
	}
	b := &openBlock{ext: &blockExt{typ: typ}}
	switch {
	case typ == blocks.BlockText:
		b.kind = blocks.BlockText
		err = startText(b, f, "text")
	case typ == blocks.BlockThinking:
		b.kind = blocks.BlockThinking
		if err = startText(b, f, "thinking"); err == nil {
			b.signature, err = optionalString(f, "signature")
		}
	case f.RequireObject("input") == nil:
		b.kind = blocks.BlockToolUse
		b.ext.input = fields["input"]
		if b.id, err = f.RequireString("id"); err == nil && b.id == "" {
			err = errors.New(`field "id" must not be empty`)
		}
		if err == nil {
			b.name, err = f.RequireString("name")
		}
	default:
		return nil, fmt.Errorf("a %s block has nothing that streams (text, thinking or input): give it whole in a block chunk", typ)
	}
	if err != nil {
		return nil, fmt.Errorf("%s block: %w", typ, err)
	}
	for _, name := range streamedFields[b.kind] {
		delete(fields, name)
	}
	b.ext.set(fields)
	return b, nil
}

// startText writes the starting value of a streamed text field, if the block has one.
func startText(b *openBlock, f blocks.Fields, name string) error {
	s, err := optionalString(f, name)
	if s != nil {
		b.text.WriteString(*s)
	}
	return err
}

func optionalString(f blocks.Fields, name string) (*string, error) {
	if v, ok := f[name]; !ok || bytes.Equal(v, []byte("null")) {
		return nil, nil
	}
	s, err := f.RequireString(name)
	return &s, err
}

// decodeFields decodes a JSON object one level deep.
func decodeFields(raw []byte) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, errors.New("must be an object")
	}
	return fields, nil
}

// set adds fields, replacing those of the same name.
func (e *blockExt) set(fields map[string]json.RawMessage) {
	for i := 0; i < len(e.fields); i++ {
		if v, ok := fields[e.fields[i].name]; ok {
			e.fields[i].value = v
			delete(fields, e.fields[i].name)
		}
	}
	for name, v := range fields {
		e.fields = append(e.fields, extField{name: name, value: v})
	}
	sort.Slice(e.fields, func(i, j int) bool { return e.fields[i].name < e.fields[j].name })
}

// render writes the block as far as it has come: its streamed fields as the assembler
// writes them, under its own type, followed by its other fields as they were given.
func (e *blockExt) render(b *openBlock) []byte {
	streamed := b.text.String()
	if b.kind == blocks.BlockToolUse && len(bytes.TrimSpace([]byte(streamed))) == 0 && e.input != nil {
		streamed = string(e.input)
	}
	base := b.assembled(streamed)
	if b.kind == blocks.BlockToolUse {
		base = blocks.RetypeToolUse(base, e.typ)
	}
	buf := base[:len(base)-1]
	for _, f := range e.fields {
		buf = jsonenc.AppendString(append(buf, ','), f.name)
		buf = append(append(buf, ':'), f.value...)
	}
	return append(buf, '}')
}
