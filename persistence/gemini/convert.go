package gemini

import (
	"fmt"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// converter turns the messages of one conversation into records, in order.
type converter struct {
	chain  transcript.Chain
	cwd    string
	model  string
	prompt string // the first thing the user asked, for the title
}

// message converts one message record: a user or gemini message becomes a message (and
// the results of a gemini message's tool calls a tool_result record after it), any other
// kind a record that is not a message, its content kept in the source.
func (c *converter) message(raw json.RawMessage, index int) error {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("not a message record: %v", err)
	}
	key := m.ID
	if key == "" {
		key = fmt.Sprintf("#%d", index)
	}
	rec := importing.Record{Type: m.Type, CreatedAt: transcript.ParseTime(m.Timestamp), Provider: Provider}
	source := map[string]any{"record": m.Type, "id": m.ID}
	if len(m.DisplayContent) > 0 && string(m.DisplayContent) != "null" {
		source["displayContent"] = m.DisplayContent
	}
	content := parts(m.Content)
	switch m.Type {
	case "user":
		rec.Role, rec.Blocks = "user", content
		if c.prompt == "" {
			c.prompt = firstText(content)
		}
		if len(content) > 0 && blockType(content[0]) == blocks.BlockToolResult {
			rec.Type = session.TypeToolResult
		}
	case "gemini":
		c.assistant(&m, &rec, content, source)
	default:
		source["content"] = m.Content
	}
	if rec.Role != "" && len(rec.Blocks) == 0 {
		rec.Role = "" // nothing said: kept for its envelope
	}
	c.chain.Add("m\x00"+key, rec, session.EnvelopeExtra{}, source, c.cwd)
	if m.Type == "gemini" {
		c.results(&m, key)
	}
	return nil
}

// assistant fills the record of a gemini message: thoughts, then what it said, then its
// tool calls; its model and token counts.
func (c *converter) assistant(m *message, rec *importing.Record, content []session.RecordBlock, source map[string]any) {
	rec.Role, rec.Type = "assistant", session.TypeAssistant
	for _, t := range m.Thoughts {
		text := strings.TrimSpace(t.Subject + "\n\n" + t.Description)
		if t.Subject == "" {
			text = t.Description
		}
		rec.Blocks = append(rec.Blocks, transcript.Thinking(text))
	}
	rec.Blocks = append(rec.Blocks, content...)
	for _, call := range m.ToolCalls {
		rec.Blocks = append(rec.Blocks, transcript.ToolUse(call.ID, call.Name, call.Args))
	}
	meta := map[string]any{}
	if m.Model != "" {
		meta["model"], c.model = m.Model, m.Model
	}
	if t := m.Tokens; t != nil {
		// Gemini counts the cached tokens within the prompt, and the thoughts and the tool
		// prompt apart from output and prompt; both are billed as output and input.
		u := session.Usage{InputTokens: max(t.Input-t.Cached, 0) + t.Tool, OutputTokens: t.Output + t.Thoughts, CacheReadInputTokens: t.Cached}
		rec.Usage, meta["usage"], source["tokens"] = &u, u, t
	}
	if len(meta) > 0 {
		rec.Meta = blocks.MustJSON(meta)
	}
}

// results adds the record of the results of a gemini message's tool calls, those that have
// one, with each call's status and display as its execution record.
func (c *converter) results(m *message, key string) {
	var rec importing.Record
	extra := session.EnvelopeExtra{ToolUseResults: map[string]json.RawMessage{}}
	for _, call := range m.ToolCalls {
		if len(call.Result) == 0 || string(call.Result) == "null" {
			continue
		}
		content, failed := resultContent(call.Result)
		failed = failed || call.Status == "error" || call.Status == "cancelled"
		rec.Blocks = append(rec.Blocks, transcript.ToolResult(call.ID, content, failed))
		exec := map[string]any{"status": call.Status}
		for k, v := range map[string]string{"displayName": call.DisplayName, "description": call.Description, "agentId": call.AgentID} {
			if v != "" {
				exec[k] = v
			}
		}
		if len(call.ResultDisplay) > 0 && string(call.ResultDisplay) != "null" {
			exec["resultDisplay"] = call.ResultDisplay
		}
		if call.RenderOutputAsMarkdown != nil {
			exec["renderOutputAsMarkdown"] = *call.RenderOutputAsMarkdown
		}
		extra.ToolUseResults[call.ID] = blocks.MustJSON(exec)
		if rec.CreatedAt.IsZero() {
			rec.CreatedAt = transcript.ParseTime(call.Timestamp)
		}
	}
	if len(rec.Blocks) == 0 {
		return
	}
	rec.Type, rec.Role, rec.Provider = session.TypeToolResult, "user", Provider
	c.chain.Add("r\x00"+key, rec, extra, map[string]any{"record": "toolCalls", "id": m.ID}, c.cwd)
}

// firstText returns the text of the first text block, or "".
func firstText(list []session.RecordBlock) string {
	for _, b := range list {
		var t struct {
			Type, Text string
		}
		if json.Unmarshal(b.JSON, &t) == nil && t.Type == blocks.BlockText {
			return t.Text
		}
	}
	return ""
}

// blockType returns the type of a block made here.
func blockType(b session.RecordBlock) string {
	var t struct{ Type string }
	json.Unmarshal(b.JSON, &t)
	return t.Type
}
