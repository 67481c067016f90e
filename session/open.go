package session

import (
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// openMessage is the message a Session is writing.
type openMessage struct {
	hdr       MessageHeader
	side      sidechain
	blocks    int // complete blocks so far; the streaming block, if any, gets this index
	meta      messageMeta
	givenMeta []byte // a restored message's fields, kept exactly as given instead of meta
	extra     EnvelopeExtra
	usage     Usage
	hasUsage  bool
	blockJSON [][]byte // the complete blocks, for counting the message's tokens when it ends
}

// messageMeta are the API message fields beside role and content that the assembler
// fills in.
type messageMeta struct {
	ID           string          `json:"id,omitempty"`
	Model        string          `json:"model,omitempty"`
	StopReason   string          `json:"stop_reason,omitempty"`
	StopSequence *string         `json:"stop_sequence,omitempty"`
	Usage        json.RawMessage `json:"usage,omitempty"`
}

func (m messageMeta) encode() []byte { return blocks.MustJSON(m) }

// openBlock is a block still streaming: text, thinking, or tool_use input JSON.
type openBlock struct {
	kind      string
	text      strings.Builder
	id, name  string // tool_use
	signature *string
	dirty     bool      // text arrived since the last checkpoint
	ext       *blockExt // set by block_start and block_fields chunks
}

// json returns the block as far as it has come.
func (b *openBlock) json() []byte {
	if b.ext != nil {
		return b.ext.render(b)
	}
	return b.assembled(b.text.String())
}

// assembled writes the block as the assembler does, with streamed as its text, thinking
// or tool input.
func (b *openBlock) assembled(streamed string) []byte {
	switch b.kind {
	case blocks.BlockText:
		return blocks.MustJSON(blocks.TextBlock{Type: blocks.BlockText, Text: streamed})
	case blocks.BlockThinking:
		return blocks.MustJSON(blocks.ThinkingBlock{Type: blocks.BlockThinking, Thinking: streamed, Signature: b.signature})
	default:
		return blocks.ToolUseJSON(b.id, b.name, streamed)
	}
}
