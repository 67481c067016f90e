package gemini

import (
	"bytes"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// part is a Part of the Gemini API, the fields sessionkeep maps.
type part struct {
	Text       *string `json:"text"`
	Thought    bool    `json:"thought"`
	InlineData *struct {
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
	} `json:"inlineData"`
	FileData *struct {
		MimeType string `json:"mimeType"`
		FileURI  string `json:"fileUri"`
	} `json:"fileData"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// parts maps content (a PartListUnion: a string, a part, or a list of both) to blocks:
// text (a thought's as thinking), inline data and file data as images or documents,
// function calls and responses as tool_use and tool_result. A part of another kind is
// kept verbatim as a block of type "gemini_part". Empty text is left out.
func parts(content json.RawMessage) []session.RecordBlock {
	content = bytes.TrimSpace(content)
	if len(content) == 0 {
		return nil
	}
	var items []json.RawMessage
	if content[0] == '[' {
		if json.Unmarshal(content, &items) != nil {
			return []session.RecordBlock{verbatim(content)}
		}
	} else {
		items = []json.RawMessage{content}
	}
	var list []session.RecordBlock
	for _, item := range items {
		if b, ok := partBlock(item); ok {
			list = append(list, b)
		}
	}
	return list
}

// partBlock maps one part; ok is false for a part that says nothing (empty text, null).
func partBlock(item json.RawMessage) (session.RecordBlock, bool) {
	var s string
	if json.Unmarshal(item, &s) == nil {
		return transcript.Text(s), s != ""
	}
	var p part
	if len(item) == 0 || item[0] != '{' || json.Unmarshal(item, &p) != nil {
		return verbatim(item), string(item) != "null"
	}
	switch {
	case p.Text != nil && p.Thought:
		return transcript.Thinking(*p.Text), *p.Text != ""
	case p.Text != nil:
		return transcript.Text(*p.Text), *p.Text != ""
	case p.InlineData != nil:
		return transcript.Media(p.InlineData.MimeType, p.InlineData.Data, ""), true
	case p.FileData != nil:
		return transcript.Media(p.FileData.MimeType, "", p.FileData.FileURI), true
	case p.FunctionCall != nil:
		return transcript.ToolUse(p.FunctionCall.ID, p.FunctionCall.Name, p.FunctionCall.Args), true
	case p.FunctionResponse != nil:
		content, failed := responseContent(p.FunctionResponse.Response)
		return transcript.ToolResult(p.FunctionResponse.ID, content, failed), true
	}
	return verbatim(item), true
}

// verbatim keeps a part sessionkeep does not map, as it came.
func verbatim(item json.RawMessage) session.RecordBlock {
	if !json.Valid(item) {
		item = blocks.MustJSON(string(item))
	}
	return session.RecordBlock{JSON: blocks.MustJSON(map[string]any{"type": "gemini_part", "part": json.RawMessage(item)})}
}

// resultContent is the content of a tool call's result (the parts Gemini CLI sent back):
// the text of its function response, with any other parts (an image a tool read) as
// blocks after it; failed when the response was an error.
func resultContent(result json.RawMessage) (content any, failed bool) {
	var out []json.RawMessage
	for _, b := range parts(result) {
		var r struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
			IsError bool            `json:"is_error"`
		}
		json.Unmarshal(b.JSON, &r)
		if r.Type != blocks.BlockToolResult {
			out = append(out, b.JSON)
			continue
		}
		failed = failed || r.IsError
		var text string // responseContent's
		if json.Unmarshal(r.Content, &text) == nil && text != "" {
			out = append(out, transcript.Text(text).JSON)
		}
	}
	if len(out) == 1 {
		var t struct{ Type, Text string }
		if json.Unmarshal(out[0], &t) == nil && t.Type == blocks.BlockText {
			return t.Text, failed
		}
	}
	if out == nil {
		return "", failed
	}
	return out, failed
}

// responseContent is the text of a function response: its output, or its error (failed),
// or the response itself as JSON.
func responseContent(response json.RawMessage) (string, bool) {
	var r struct {
		Output *string          `json:"output"`
		Error  *json.RawMessage `json:"error"`
	}
	if json.Unmarshal(response, &r) == nil {
		if r.Output != nil {
			return *r.Output, false
		}
		if r.Error != nil {
			var text string
			if json.Unmarshal(*r.Error, &text) == nil {
				return text, true
			}
			return string(*r.Error), true
		}
	}
	return string(response), false
}
