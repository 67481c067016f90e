package opencode

import (
	"fmt"
	"strings"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// convert makes the records of one session from its messages, in order.
func convert(info sessionInfo, msgs []message, path string) *transcript.File {
	file := &transcript.File{Path: path}
	c := &converter{chain: transcript.Chain{SessionID: info.ID, Format: Format}, cwd: info.Directory}
	for _, m := range msgs {
		if err := c.message(m); err != nil {
			file.Skipped = append(file.Skipped, transcript.Skipped{File: path, Reason: fmt.Sprintf("message %s: %v", m.info.ID, err)})
		}
	}
	file.Records = c.chain.Records
	first, last := transcript.FillTimes(file.Records, millis(info.Time.Created))
	if first.IsZero() {
		first, last = transcript.FillTimes(file.Records, time.Now().UTC())
	}
	if updated := millis(info.Time.Updated); updated.After(last) {
		last = updated
	}
	title := info.Title
	if title == "" || strings.HasPrefix(title, "New session - ") {
		title = c.prompt
	}
	file.Target = importing.ImportTarget{Info: session.SessionInfo{
		ID: info.ID, ProjectPath: info.Directory, Title: session.TitleFrom(title), Provider: c.provider,
		Model: c.model, CreatedAt: first, UpdatedAt: last, Status: session.StatusActive,
	}}
	return file
}

// converter turns the messages of one session into records.
type converter struct {
	chain           transcript.Chain
	cwd             string
	model, provider string
	prompt          string
}

// step is what one request of an assistant message gathered: its blocks, the results of
// its tool calls, its usage, and the parts that are not content.
type step struct {
	blocks  []session.RecordBlock
	results []session.RecordBlock
	execs   map[string]json.RawMessage
	usage   *session.Usage
	other   []json.RawMessage
	meta    map[string]json.RawMessage // content parts' metadata, by part id
	at      time.Time
	doneAt  time.Time
}

// done notes that something of the step ended at ms, when it is later than what ended
// before.
func (s *step) done(ms int64) {
	if t := millis(ms); t.After(s.doneAt) {
		s.doneAt = t
	}
}

// message converts one message: a user message to one record, an assistant message to a
// record a step, each followed by the results of its tool calls.
func (c *converter) message(m message) error {
	if m.info.Role != "user" && m.info.Role != "assistant" {
		return fmt.Errorf("role %q is neither user nor assistant", m.info.Role)
	}
	if cwd := m.info.Path.Cwd; cwd != "" {
		c.cwd = cwd
	}
	steps := []*step{{at: millis(m.info.Time.Created)}}
	for i, raw := range m.parts {
		var p part
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("part %d: %v", i, err)
		}
		cur := steps[len(steps)-1]
		// A step-start begins the next request; without them (older versions), content
		// after tool results is the model answering them.
		next := p.Type == "step-start" && (len(cur.blocks) > 0 || len(cur.results) > 0)
		next = next || len(cur.results) > 0 && (p.Type == "text" || p.Type == "reasoning" || p.Type == "file")
		if next {
			cur = &step{at: cur.doneAt}
			steps = append(steps, cur)
		}
		c.part(p, raw, cur, m.info.Role == "user")
	}
	if m.info.Role == "assistant" && m.info.Tokens != nil && !anyUsage(steps) {
		u := usage(m.info.Tokens)
		steps[len(steps)-1].usage = &u
	}
	for i, s := range steps {
		c.add(m, i, s)
	}
	return nil
}

// part adds one part to the step.
func (c *converter) part(p part, raw json.RawMessage, s *step, user bool) {
	if content[p.Type] && len(p.Metadata) > 0 && string(p.Metadata) != "null" && string(p.Metadata) != "{}" {
		if s.meta == nil {
			s.meta = map[string]json.RawMessage{}
		}
		s.meta[p.ID] = p.Metadata
	}
	switch p.Type {
	case "text":
		if p.Text != "" {
			s.blocks = append(s.blocks, transcript.Text(p.Text))
			if user && c.prompt == "" && !p.Ignored {
				c.prompt = p.Text
			}
		}
	case "reasoning":
		s.blocks = append(s.blocks, thinking(p))
	case "file":
		s.blocks = append(s.blocks, file(p))
	case "tool":
		c.tool(p, s)
	case "step-finish":
		if p.Tokens != nil {
			u := usage(p.Tokens)
			s.usage = &u
		}
		s.other = append(s.other, raw)
	default:
		s.other = append(s.other, raw)
	}
	if p.Time != nil {
		s.done(p.Time.End)
	}
}

// content are the kinds of part that become blocks. Their metadata (the provider's item
// ids; OpenAI's encrypted reasoning) has no place in a block, so it is kept in the
// record's source.
var content = map[string]bool{"text": true, "reasoning": true, "file": true, "tool": true}

// tool adds a tool part: its call, and its result when it has one (a call still pending or
// running has none, and contexts give it an interrupted result).
func (c *converter) tool(p part, s *step) {
	if p.State == nil {
		s.blocks = append(s.blocks, transcript.ToolUse(p.CallID, p.Tool, nil))
		return
	}
	st := p.State
	s.blocks = append(s.blocks, transcript.ToolUse(p.CallID, p.Tool, st.Input))
	exec := map[string]any{"status": st.Status}
	if st.Title != "" {
		exec["title"] = st.Title
	}
	if len(st.Metadata) > 0 && string(st.Metadata) != "null" {
		exec["metadata"] = st.Metadata
	}
	if s.execs == nil {
		s.execs = map[string]json.RawMessage{}
	}
	s.execs[p.CallID] = blocks.MustJSON(exec)
	switch st.Status {
	case "completed":
		var content any = st.Output
		if len(st.Attachments) > 0 {
			list := []json.RawMessage{transcript.Text(st.Output).JSON}
			for _, a := range st.Attachments {
				list = append(list, file(a).JSON)
			}
			content = list
		}
		s.results = append(s.results, transcript.ToolResult(p.CallID, content, false))
	case "error":
		s.results = append(s.results, transcript.ToolResult(p.CallID, st.Error, true))
	default:
		return
	}
	s.done(st.Time.End)
}

// add appends a step's record, and the record of its results.
func (c *converter) add(m message, index int, s *step) {
	rec := importing.Record{Type: m.info.Role, Role: m.info.Role, CreatedAt: s.at, Blocks: s.blocks, Usage: s.usage}
	source := map[string]any{"record": "message", "id": m.info.ID}
	if index == 0 {
		source["info"] = m.raw
	}
	if len(s.other) > 0 {
		source["parts"] = s.other
	}
	if len(s.meta) > 0 {
		source["partMetadata"] = s.meta
	}
	extra := session.EnvelopeExtra{}
	if m.info.Role == "assistant" {
		c.assistant(m.info, &rec, &extra)
	} else if model := m.info.Model.ModelID; model != "" {
		source["model"] = m.info.Model
	}
	if len(rec.Blocks) == 0 {
		rec.Role = "" // a step with no content: kept for its envelope
	}
	c.chain.Add(fmt.Sprintf("%s\x00%d", m.info.ID, index), rec, extra, source, c.cwd)
	if len(s.results) == 0 {
		return
	}
	res := importing.Record{Type: session.TypeToolResult, Role: "user", CreatedAt: s.doneAt, Blocks: s.results, Provider: rec.Provider}
	c.chain.Add(fmt.Sprintf("%s\x00%d\x00results", m.info.ID, index), res, session.EnvelopeExtra{ToolUseResults: s.execs},
		map[string]any{"record": "tool results", "id": m.info.ID}, c.cwd)
}

// assistant sets an assistant record's model, provider and error.
func (c *converter) assistant(info messageInfo, rec *importing.Record, extra *session.EnvelopeExtra) {
	rec.Provider = info.ProviderID
	meta := map[string]any{}
	if info.ModelID != "" {
		meta["model"], c.model, c.provider = info.ModelID, info.ModelID, info.ProviderID
	}
	if rec.Usage != nil {
		meta["usage"] = rec.Usage
	}
	if len(meta) > 0 {
		rec.Meta = blocks.MustJSON(meta)
	}
	if e := info.Error; e != nil {
		extra.Error = e.Name
		if e.Data.Message != "" {
			extra.Error = e.Name + ": " + e.Data.Message
		}
		if e.Name == "MessageAbortedError" {
			rec.Status = session.MessageInterrupted
		}
	}
}

// thinking makes the thinking block of a reasoning part, with the signature Anthropic gave
// it when OpenCode kept it in the part's metadata.
func thinking(p part) session.RecordBlock {
	var meta struct {
		Anthropic struct {
			Signature    string `json:"signature"`
			RedactedData string `json:"redactedData"`
		} `json:"anthropic"`
	}
	json.Unmarshal(p.Metadata, &meta)
	b := map[string]string{"type": blocks.BlockThinking, "thinking": p.Text}
	if meta.Anthropic.RedactedData != "" {
		b = map[string]string{"type": blocks.BlockRedactedThinking, "data": meta.Anthropic.RedactedData}
	} else if meta.Anthropic.Signature != "" {
		b["signature"] = meta.Anthropic.Signature
	}
	return session.RecordBlock{JSON: blocks.MustJSON(b)}
}

// file makes the block of a file part: a data URL's bytes as base64, any other URL (a
// file:// path) as a url source.
func file(p part) session.RecordBlock {
	if rest, ok := strings.CutPrefix(p.URL, "data:"); ok {
		if mediaType, data, ok := strings.Cut(rest, ";base64,"); ok {
			return transcript.Media(mediaType, data, "")
		}
	}
	return transcript.Media(p.Mime, "", p.URL)
}

// usage maps OpenCode's token counts: reasoning is billed as output.
func usage(t *tokens) session.Usage {
	return session.Usage{InputTokens: t.Input, OutputTokens: t.Output + t.Reasoning, CacheReadInputTokens: t.Cache.Read, CacheCreationInputTokens: t.Cache.Write}
}

func anyUsage(steps []*step) bool {
	for _, s := range steps {
		if s.usage != nil {
			return true
		}
	}
	return false
}

// millis is a time OpenCode stores (milliseconds since 1970), or the zero time.
func millis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
