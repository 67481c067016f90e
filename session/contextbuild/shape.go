package contextbuild

import (
	"strings"

	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// shape encodes a repaired context as the provider's API takes its messages.
func shape(msgs []*ctxMessage, provider string) []byte {
	if provider == tokens.ProviderOpenAI {
		return shapeOpenAI(msgs)
	}
	return shapeAnthropic(msgs)
}

// shapeAnthropic writes Messages API messages: {role, content: blocks}, blocks as stored.
func shapeAnthropic(msgs []*ctxMessage) []byte {
	buf := []byte{'['}
	for i, m := range msgs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"role":`...)
		buf = jsonenc.AppendString(buf, m.role)
		buf = append(buf, `,"content":[`...)
		for j, b := range m.blocks {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, b...)
		}
		buf = append(buf, "]}"...)
	}
	return append(buf, ']')
}

// Chat Completions message shapes.
type (
	oaMessage struct {
		Role       string       `json:"role"`
		Content    any          `json:"content"`
		ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
		ToolCallID string       `json:"tool_call_id,omitempty"`
	}
	oaToolCall struct {
		ID       string     `json:"id"`
		Type     string     `json:"type"`
		Function oaFunction `json:"function"`
	}
	oaFunction struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	oaPart struct {
		Type     string      `json:"type"`
		Text     string      `json:"text,omitempty"`
		ImageURL *oaImageURL `json:"image_url,omitempty"`
		File     *oaFile     `json:"file,omitempty"`
	}
	oaImageURL struct {
		URL string `json:"url"`
	}
	oaFile struct {
		Filename string `json:"filename,omitempty"`
		FileData string `json:"file_data"`
	}
)

// shapeOpenAI writes Chat Completions messages: an assistant's tool calls become
// tool_calls, each tool result a "tool" message right after it, thinking is left out
// (Chat Completions takes none back), images become image_url parts. An assistant message
// left with neither text nor tool calls (only thinking) is left out.
func shapeOpenAI(msgs []*ctxMessage) []byte {
	out := []oaMessage{}
	for _, m := range msgs {
		if m.role == "assistant" {
			if a := openAIAssistant(m); a.Content != nil || len(a.ToolCalls) > 0 {
				out = append(out, a)
			}
			continue
		}
		out = append(out, openAIUser(m)...)
	}
	return blocks.MustJSON(out)
}

func openAIAssistant(m *ctxMessage) oaMessage {
	msg := oaMessage{Role: "assistant"}
	var text []string
	for _, raw := range m.blocks {
		b, ok := tokens.DecodeBlock(raw)
		switch {
		case ok && b.Type == blocks.BlockText:
			text = append(text, b.Text)
		case ok && b.Type == blocks.BlockToolUse:
			msg.ToolCalls = append(msg.ToolCalls, oaToolCall{ID: b.ID, Type: "function",
				Function: oaFunction{Name: b.Name, Arguments: string(b.Input)}})
		}
	}
	if len(text) > 0 {
		msg.Content = strings.Join(text, "\n")
	}
	return msg
}

// openAIUser turns a user message into "tool" messages for its results, then a user
// message for the rest.
func openAIUser(m *ctxMessage) []oaMessage {
	var out []oaMessage
	var parts []oaPart
	for _, raw := range m.blocks {
		b, ok := tokens.DecodeBlock(raw)
		if !ok {
			continue
		}
		if b.Type == blocks.BlockToolResult {
			text, images := tokens.FlattenResult(b.Content)
			if images > 0 {
				text += "\n[image omitted: a tool message takes text only]"
			}
			if text == "" {
				text = "(no output)" // Chat Completions refuses an empty tool message
			}
			if b.IsError {
				text = "Error: " + text
			}
			out = append(out, oaMessage{Role: "tool", ToolCallID: b.ToolUseID, Content: text})
			continue
		}
		if p, ok := openAIPart(&b); ok {
			parts = append(parts, p)
		}
	}
	if len(parts) == 1 && parts[0].Type == "text" {
		return append(out, oaMessage{Role: "user", Content: parts[0].Text})
	}
	if len(parts) > 0 {
		out = append(out, oaMessage{Role: "user", Content: parts})
	}
	return out
}

// openAIPart converts a user block into a content part, when Chat Completions has one.
func openAIPart(b *tokens.Block) (oaPart, bool) {
	switch b.Type {
	case blocks.BlockText:
		return oaPart{Type: "text", Text: b.Text}, true
	case blocks.BlockImage:
		if url := mediaURL(b.Source); url != "" {
			return oaPart{Type: "image_url", ImageURL: &oaImageURL{URL: url}}, true
		}
	case blocks.BlockDocument:
		if b.Source != nil && b.Source.Type == "text" {
			return oaPart{Type: "text", Text: b.Source.Data}, true
		}
		if b.Source != nil && b.Source.Type == "base64" {
			return oaPart{Type: "file", File: &oaFile{Filename: b.Title, FileData: mediaURL(b.Source)}}, true
		}
	}
	return oaPart{}, false
}

// mediaURL returns a source as a URL: its own, or a data URL of its bytes.
func mediaURL(s *tokens.MediaSource) string {
	switch {
	case s == nil:
		return ""
	case s.Type == "url":
		return s.URL
	case s.Type == "base64":
		return "data:" + s.MediaType + ";base64," + s.Data
	}
	return ""
}
