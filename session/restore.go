package session

import (
	"bytes"
	"fmt"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// RestoreMessages seeds an empty session with structured messages (a JSON array of
// {role, content, ...}), every block kept as given. Turns and the token tracker are
// derived from them. Tool results are not matched against tool uses here: restore keeps
// the history it is given, and the context builder repairs what the API would refuse.
func (s *Session) RestoreMessages(raw []byte) error {
	msgs, err := parseMessages(raw)
	if err != nil {
		return err
	}
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if s.chain.nextSeq > 0 || s.asm.writing() {
		return fmt.Errorf("%w: session %s already has %d messages; restore into a new session", ErrSessionNotEmpty, s.id, s.chain.nextSeq)
	}
	for _, m := range msgs {
		s.asm.restored(m)
		if m.typ == TypeUser && !s.titled {
			s.setTitle(m.blocks)
		}
	}
	return nil
}

// restoredMessage is one validated message of RestoreMessages.
type restoredMessage struct {
	role, typ string
	blocks    []checkedBlock
	meta      []byte // the message's other fields, as a JSON object
	usage     Usage
	hasUsage  bool
}

// ParsedMessage is an API message as RestoreMessages reads it: its role, its type (a
// message of tool results is TypeToolResult) and the JSON of its checked blocks.
type ParsedMessage struct {
	Role, Type string
	Blocks     [][]byte
}

// ParseMessages reads API messages as RestoreMessages does, with its errors; a context
// from JavaScript is read the same way.
func ParseMessages(raw []byte) ([]ParsedMessage, error) {
	parsed, err := parseMessages(raw)
	if err != nil {
		return nil, err
	}
	out := make([]ParsedMessage, len(parsed))
	for i, p := range parsed {
		blocks := make([][]byte, len(p.blocks))
		for j, b := range p.blocks {
			blocks[j] = b.json
		}
		out[i] = ParsedMessage{Role: p.role, Type: p.typ, Blocks: blocks}
	}
	return out, nil
}

func parseMessages(raw []byte) ([]restoredMessage, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%w: messages must be a JSON array", ErrInvalidMessage)
	}
	msgs := make([]restoredMessage, len(items))
	for i, item := range items {
		m, err := parseMessage(item, fmt.Sprintf("messages[%d]", i))
		if err != nil {
			return nil, err
		}
		msgs[i] = m
	}
	return msgs, nil
}

func parseMessage(item map[string]json.RawMessage, path string) (restoredMessage, error) {
	var m restoredMessage
	if item == nil {
		return m, fmt.Errorf("%w: %s must be an object", ErrInvalidMessage, path)
	}
	if err := json.Unmarshal(item["role"], &m.role); err != nil || (m.role != "user" && m.role != "assistant") {
		return m, fmt.Errorf("%w: %s.role must be \"user\" or \"assistant\"", ErrInvalidMessage, path)
	}
	content := item["content"]
	var err error
	if len(content) > 0 && content[0] == '"' {
		m.blocks, err = userBlocks(content)
	} else {
		var raws []json.RawMessage
		if json.Unmarshal(content, &raws) != nil || raws == nil {
			return m, fmt.Errorf("%w: %s.content must be a string or an array of blocks", ErrInvalidMessage, path)
		}
		m.blocks, err = checkBlocks(raws, path+".content")
	}
	if err != nil {
		return m, err
	}
	m.typ = m.role
	if m.role == "user" && hasToolResults(m.blocks) {
		m.typ = TypeToolResult
	}
	if usage, ok := item["usage"]; ok && !bytes.Equal(usage, []byte("null")) {
		if m.usage, err = ParseUsage(usage); err != nil || usage[0] != '{' {
			return m, fmt.Errorf("%w: %s.usage must be an object of token counts", ErrInvalidMessage, path)
		}
		m.hasUsage = true
	}
	delete(item, "role")
	delete(item, "content")
	m.meta = blocks.MustJSON(item)
	return m, nil
}
