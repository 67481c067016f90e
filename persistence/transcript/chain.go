package transcript

import (
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// Chain collects the records of one session read from a format that has no envelopes of
// its own (Gemini CLI, OpenCode, aider): each record gets an id made from the source's key
// for it (SyntheticUUID, so importing again finds it) and the record before it as parent.
type Chain struct {
	SessionID   string
	Format      string
	Records     []importing.Record
	occurrences Occurrences
}

// Add appends rec under key, with an envelope extra that holds extra, the source fields
// (with the format's name as "format") and the working directory cwd, when it is known.
func (c *Chain) Add(key string, rec importing.Record, extra session.EnvelopeExtra, source map[string]any, cwd string) {
	if c.occurrences == nil {
		c.occurrences = Occurrences{}
	}
	rec.UUID = SyntheticUUID(c.SessionID, []byte(key), c.occurrences.Next([]byte(key)))
	if n := len(c.Records); n > 0 {
		rec.ParentUUID = c.Records[n-1].UUID
	}
	if source == nil {
		source = map[string]any{}
	}
	source["format"] = c.Format
	extra.Source = blocks.MustJSON(source)
	if cwd != "" {
		extra.Context = blocks.MustJSON(map[string]string{"cwd": cwd})
	}
	rec.Extra = extra.Encode()
	c.Records = append(c.Records, rec)
}

// Text returns a text block.
func Text(text string) session.RecordBlock {
	return session.RecordBlock{JSON: blocks.MustJSON(map[string]string{"type": blocks.BlockText, "text": text})}
}

// Thinking returns a thinking block without a signature (the formats that keep thoughts as
// text have none).
func Thinking(text string) session.RecordBlock {
	return session.RecordBlock{JSON: blocks.MustJSON(map[string]string{"type": blocks.BlockThinking, "thinking": text})}
}

// ToolUse returns a tool_use block; input must be a JSON object, else it is kept as
// raw_input beside an empty one.
func ToolUse(id, name string, input []byte) session.RecordBlock {
	b := map[string]any{"type": blocks.BlockToolUse, "id": id, "name": name}
	if len(input) > 0 && input[0] == '{' && json.Valid(input) {
		b["input"] = json.RawMessage(input)
	} else {
		b["input"] = map[string]any{}
		if len(input) > 0 && string(input) != "null" {
			b["raw_input"] = string(input)
		}
	}
	return session.RecordBlock{JSON: blocks.MustJSON(b), ToolUseID: id}
}

// ToolResult returns a tool_result block whose content is text or blocks.
func ToolResult(id string, content any, isError bool) session.RecordBlock {
	b := map[string]any{"type": blocks.BlockToolResult, "tool_use_id": id, "content": content}
	if isError {
		b["is_error"] = true
	}
	return session.RecordBlock{JSON: blocks.MustJSON(b)}
}

// Media returns an image block (for an image/* media type) or a document block of base64
// data, or of a URL when data is empty.
func Media(mediaType, data, url string) session.RecordBlock {
	kind := blocks.BlockDocument
	if strings.HasPrefix(mediaType, "image/") {
		kind = blocks.BlockImage
	}
	source := map[string]string{"type": "base64", "media_type": mediaType, "data": data}
	if data == "" {
		source = map[string]string{"type": "url", "url": url}
		if mediaType != "" {
			source["media_type"] = mediaType
		}
	}
	return session.RecordBlock{JSON: blocks.MustJSON(map[string]any{"type": kind, "source": source})}
}
