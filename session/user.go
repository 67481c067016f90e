package session

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// titleLength is how many characters of the first prompt become a session's title.
const titleLength = 80

// AppendUserMessage records a user message: content is JSON, a string or an array of
// blocks. A message still streaming is ended first: an assistant reply cut off by a new
// prompt is marked interrupted, one answered by tool results is complete. It returns the
// new message with its envelope, as JSON, as it was stored (see AddUserMessage).
func (s *Session) AppendUserMessage(content []byte) ([]byte, error) {
	return s.AppendUserMessageWith(content, MessageOptions{})
}

// AppendUserMessageWith is AppendUserMessage with the message's state given by opts.
func (s *Session) AppendUserMessageWith(content []byte, opts MessageOptions) ([]byte, error) {
	m, err := s.AddUserMessage(content, nil, opts)
	if err != nil {
		return nil, err
	}
	return AppendEnvelope(nil, &m), nil
}

// AddUserMessage is AppendUserMessageWith returning the new message instead of its
// encoding: its Blocks as stored, the JSON of content with a tool block's secrets replaced
// when the Manager redacts. large are the long strings of content that came apart from its
// JSON; nil when none did.
func (s *Session) AddUserMessage(content []byte, large jsonenc.LargeStrings, opts MessageOptions) (StoredMessage, error) {
	m, _, err := s.AddUserMessageRedacted(content, large, opts)
	return m, err
}

// AddUserMessageRedacted is AddUserMessage also saying whether redaction changed the
// message's blocks: a caller that kept content can hand it back when it did not.
func (s *Session) AddUserMessageRedacted(content []byte, large jsonenc.LargeStrings, opts MessageOptions) (m StoredMessage, redacted bool, err error) {
	checked, err := userBlocks(content)
	if err != nil {
		return StoredMessage{}, false, err
	}
	if err := spliceBlocks(checked, large); err != nil {
		return StoredMessage{}, false, err
	}
	if err := s.lock(); err != nil {
		return StoredMessage{}, false, err
	}
	defer s.mu.Unlock()
	defer s.gather()()
	typ := TypeUser
	if hasToolResults(checked) {
		typ = TypeToolResult
		for _, b := range checked {
			if b.info.Type != blocks.BlockToolResult {
				continue
			}
			if err := s.knownToolUse(b.info.ToolUseID); err != nil {
				return StoredMessage{}, false, err
			}
		}
	}
	m, redacted = s.asm.userMessage(typ, checked, opts)
	if typ == TypeUser && !m.IsSidechain && !s.titled {
		s.setTitle(checked)
	}
	return m, redacted, nil
}

// spliceBlocks puts the large strings back into the checked blocks that hold their
// placeholders; a placeholder stands for a string, so the checks made hold for the result.
func spliceBlocks(blocks []checkedBlock, large jsonenc.LargeStrings) error {
	if len(large) == 0 {
		return nil
	}
	used := 0
	for i := range blocks {
		json, err := large.Splice(blocks[i].json, &used)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrInvalidMessage, err)
		}
		blocks[i].json = json
	}
	if used != len(large) {
		return fmt.Errorf("%w: %d large strings given, %d placeholders", ErrInvalidMessage, len(large), used)
	}
	return nil
}

// checkedBlock is a block's JSON with what validation learned of it.
type checkedBlock struct {
	json []byte
	info blocks.BlockInfo
}

// userBlocks validates user content: a string becomes one text block, holding the string's
// JSON as given, so that what a Go string cannot hold (a lone surrogate, which
// JSON.stringify writes as \udXXX) is kept.
func userBlocks(content []byte) ([]checkedBlock, error) {
	if text := bytes.TrimSpace(content); len(text) > 0 && text[0] == '"' {
		var s string
		if err := json.Unmarshal(text, &s); err != nil {
			return nil, fmt.Errorf("%w: content: %v", ErrInvalidMessage, err)
		}
		block := append(append([]byte(`{"type":"text","text":`), text...), '}')
		return []checkedBlock{{json: block, info: blocks.BlockInfo{Type: blocks.BlockText}}}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(content, &raws); err != nil || len(raws) == 0 {
		return nil, fmt.Errorf("%w: content must be a string or a non-empty array of blocks", ErrInvalidMessage)
	}
	return checkBlocks(raws, "content")
}

func checkBlocks(raws []json.RawMessage, path string) ([]checkedBlock, error) {
	checked := make([]checkedBlock, len(raws))
	for i, raw := range raws {
		info, err := blocks.CheckBlock(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: %s[%d]: %v", ErrInvalidMessage, path, i, err)
		}
		checked[i] = checkedBlock{json: raw, info: info}
	}
	return checked, nil
}

// hasToolResults reports whether a user message carries tool results. Such a message
// answers the assistant's tool calls, so it belongs to the assistant's turn (envelope type
// tool_result) even when text follows the results.
func hasToolResults(checked []checkedBlock) bool {
	for _, b := range checked {
		if b.info.Type == blocks.BlockToolResult {
			return true
		}
	}
	return false
}

// setTitle names the session after the text of its first prompt.
func (s *Session) setTitle(checked []checkedBlock) {
	for _, b := range checked {
		if b.info.Type != blocks.BlockText {
			continue
		}
		var t blocks.TextBlock
		if json.Unmarshal(b.json, &t) != nil {
			continue
		}
		if title := TitleFrom(t.Text); title != "" {
			s.titled = true
			s.record(SetTitle{SessionID: s.id, Title: title})
			return
		}
	}
}

// TitleFrom returns the first line of text, cut to titleLength characters.
func TitleFrom(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	line = strings.TrimSpace(line)
	if utf8.RuneCountInString(line) <= titleLength {
		return line
	}
	runes := []rune(line)
	return strings.TrimSpace(string(runes[:titleLength-1])) + "…"
}
