package codex

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// converter turns the records of one rollout into session records, in order.
type converter struct {
	sessionID   string
	projectPath string
	title       string
	model       string
	cwd, branch string
	occurrences transcript.Occurrences
	repeats     *transcript.Repeats // when set, only the lines it names are counted in occurrences
	recs        []importing.Record
	lastTotal   []byte // total_token_usage of the last token count, to drop repeated reports
}

// noteSession learns the session's id, project and branch from its session_meta.
func (c *converter) noteSession(l line) {
	if l.Type != "session_meta" || c.projectPath != "" {
		return
	}
	var meta struct {
		ID  string `json:"id"`
		Cwd string `json:"cwd"`
		Git struct {
			Branch string `json:"branch"`
		} `json:"git"`
	}
	if json.Unmarshal(l.Payload, &meta) == nil {
		if meta.ID != "" {
			c.sessionID = meta.ID
		}
		c.projectPath, c.cwd, c.branch = meta.Cwd, meta.Cwd, meta.Git.Branch
	}
}

// payload is a response_item's payload, the fields sessionkeep maps.
type payload struct {
	Type      string            `json:"type"`
	Role      string            `json:"role"`
	Content   []json.RawMessage `json:"content"`
	Name      string            `json:"name"`
	Arguments json.RawMessage   `json:"arguments"`
	Input     *string           `json:"input"`
	CallID    string            `json:"call_id"`
	ID        string            `json:"id"`
	Action    json.RawMessage   `json:"action"`
	Output    json.RawMessage   `json:"output"`
}

// occurrence returns how many lines identical to text came before it: none, unless repeats
// (a first reading's) says it may occur more than once.
func (c *converter) occurrence(text []byte) int {
	if c.repeats != nil && !c.repeats.MayRepeat(text) {
		return 0
	}
	return c.occurrences.Next(text)
}

// record converts one rollout record and appends it. An error means the record is
// damaged and is left out.
func (c *converter) record(l line, text []byte) error {
	rec := importing.Record{
		UUID:      transcript.SyntheticUUID(c.sessionID, text, c.occurrence(text)),
		Type:      l.Type,
		CreatedAt: transcript.ParseTime(l.Timestamp),
	}
	if n := len(c.recs); n > 0 {
		rec.ParentUUID = c.recs[n-1].UUID
	}
	members, plain := plainMembers(text)
	if !plain {
		// checked before the record changes the converter, as every record was; recordSource
		// decodes it again to encode it, which only a record plainMembers declines costs
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(text, &fields); err != nil {
			return fmt.Errorf("not a JSON object")
		}
	}
	extra := session.EnvelopeExtra{}
	var mapped *[]string // the payload fields a response item's record holds, if it is a message
	switch l.Type {
	case "response_item":
		var err error
		if mapped, err = c.responseItem(l.Payload, &rec, &extra); err != nil {
			return err
		}
	case "turn_context":
		c.turnContext(l.Payload)
	case "event_msg":
		c.event(l.Payload, &rec)
	}
	extra.Context = c.context()
	var err error
	if extra.Source, err = recordSource(text, members, plain, l.Payload, mapped); err != nil {
		return err
	}
	rec.Extra = extra.Encode()
	c.continues(&rec)
	c.recs = append(c.recs, rec)
	return nil
}

// responseItem maps an item the model sent or received to a message record (see item)
// and returns the payload fields it maps, which leave the record's source, or nil if the
// record is not a message: a message of the system or developer and a ghost snapshot stay
// records that are not messages.
func (c *converter) responseItem(raw json.RawMessage, rec *importing.Record, extra *session.EnvelopeExtra) (*[]string, error) {
	var p payload
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("payload: %v", err)
	}
	if (p.Type == "message" && p.Role != "user" && p.Role != "assistant") || p.Type == "ghost_snapshot" {
		return nil, nil
	}
	mapped, err := c.item(p, raw, rec, extra)
	if err != nil || rec.Role == "" {
		return nil, err
	}
	rec.Type = map[string]string{"assistant": session.TypeAssistant, "user": session.TypeUser}[rec.Role]
	if len(rec.Blocks) > 0 && blockType(rec.Blocks[0].JSON) == blocks.BlockToolResult {
		rec.Type = session.TypeToolResult
	}
	return &mapped, nil
}

// item sets the role and blocks of a record of item p and returns the payload fields they
// hold. A message becomes its content; a function call, a local shell call and a freeform
// (custom) tool call become tool_use blocks, their outputs tool_result blocks; reasoning,
// web searches, compactions and items of kinds sessionkeep does not know are kept verbatim
// as blocks of their own type: an item named *_output as the user's (it answers a call),
// any other as the model's.
func (c *converter) item(p payload, raw json.RawMessage, rec *importing.Record, extra *session.EnvelopeExtra) ([]string, error) {
	switch p.Type {
	case "message":
		list, err := contentBlocks(p.Content)
		if err != nil || len(list) == 0 {
			return nil, err
		}
		rec.Role, rec.Blocks = p.Role, list
		if p.Role == "user" && c.title == "" {
			c.title = requestOf(list)
		}
		return []string{"role", "content"}, nil
	case "function_call":
		rec.Role, rec.Blocks = "assistant", []session.RecordBlock{{JSON: toolUse(p.CallID, p.Name, p.Arguments), ToolUseID: p.CallID}}
		return []string{"name", "arguments", "call_id"}, nil
	case "custom_tool_call":
		if p.Input == nil || p.CallID == "" {
			return nil, fmt.Errorf("payload: a custom_tool_call needs a call_id and a string input")
		}
		rec.Role, rec.Blocks = "assistant", []session.RecordBlock{{JSON: freeformToolUse(p.CallID, p.Name, *p.Input), ToolUseID: p.CallID}}
		return []string{"name", "input", "call_id"}, nil
	case "local_shell_call":
		id := cmp.Or(p.CallID, p.ID)
		if id == "" || len(p.Action) == 0 {
			return nil, fmt.Errorf("payload: a local_shell_call needs a call_id and an action")
		}
		rec.Role, rec.Blocks = "assistant", []session.RecordBlock{{JSON: toolUse(id, "local_shell", p.Action), ToolUseID: id}}
		return []string{"call_id", "action"}, nil
	case "function_call_output", "custom_tool_call_output":
		block, execution, err := toolResult(p.CallID, p.Output)
		if err != nil {
			return nil, err
		}
		rec.Role, rec.Blocks = "user", []session.RecordBlock{{JSON: block}}
		if execution != nil {
			extra.ToolUseResults = map[string]json.RawMessage{p.CallID: execution}
		}
		return []string{"call_id", "output"}, nil
	}
	if _, err := blocks.CheckBlock(raw); err != nil {
		return nil, fmt.Errorf("payload: %v", err)
	}
	rec.Role, rec.Blocks = "assistant", []session.RecordBlock{{JSON: raw}}
	if strings.HasSuffix(p.Type, "_output") {
		rec.Role = "user"
	}
	return keysBut(raw, "type"), nil
}

// keysBut returns the names of the fields of the JSON object obj but one.
func keysBut(obj json.RawMessage, keep string) []string {
	if members, ok := plainMembers(obj); ok {
		names := make([]string, 0, len(members))
		for _, m := range members {
			if string(m.key) != keep {
				names = append(names, string(m.key))
			}
		}
		return names
	}
	var fields map[string]json.RawMessage
	json.Unmarshal(obj, &fields)
	names := make([]string, 0, len(fields))
	for name := range fields {
		if name != keep {
			names = append(names, name)
		}
	}
	return names
}

// blockType returns the type of a block made here.
func blockType(block []byte) string {
	var b struct {
		Type string `json:"type"`
	}
	json.Unmarshal(block, &b)
	return b.Type
}

// turnContext follows the working directory and model of the turns that follow.
func (c *converter) turnContext(raw json.RawMessage) {
	var tc struct {
		Cwd   string `json:"cwd"`
		Model string `json:"model"`
	}
	if json.Unmarshal(raw, &tc) == nil {
		if tc.Cwd != "" {
			c.cwd = tc.Cwd
		}
		if tc.Model != "" {
			c.model = tc.Model
		}
	}
}

// event counts a token report's usage, once, and marks the answer an aborted turn cut off.
func (c *converter) event(raw json.RawMessage, rec *importing.Record) {
	var ev struct {
		Type string `json:"type"`
		Info *struct {
			Total json.RawMessage `json:"total_token_usage"`
			Last  struct {
				Input  int64 `json:"input_tokens"`
				Cached int64 `json:"cached_input_tokens"`
				Output int64 `json:"output_tokens"`
			} `json:"last_token_usage"`
		} `json:"info"`
	}
	if json.Unmarshal(raw, &ev) != nil {
		return
	}
	switch {
	case ev.Type == "token_count" && ev.Info != nil && !bytes.Equal(ev.Info.Total, c.lastTotal):
		c.lastTotal = ev.Info.Total
		l := ev.Info.Last
		rec.Usage = &session.Usage{InputTokens: l.Input - l.Cached, OutputTokens: l.Output, CacheReadInputTokens: l.Cached}
	case ev.Type == "turn_aborted":
		for i := len(c.recs) - 1; i >= 0 && c.recs[i].Role != "user"; i-- {
			if c.recs[i].Role == "assistant" {
				c.recs[i].Status = session.MessageInterrupted
				return
			}
		}
	}
}

// continues marks a record that continues the message before it: the model's items of one
// response, or the outputs of its calls.
func (c *converter) continues(rec *importing.Record) {
	if rec.Role == "" {
		return
	}
	for i := len(c.recs) - 1; i >= 0; i-- {
		if p := c.recs[i]; p.Role != "" {
			rec.Continues = p.Role == rec.Role && (rec.Role == "assistant" || (rec.Type == session.TypeToolResult && p.Type == session.TypeToolResult))
			return
		}
	}
}

// context is the envelope context of the records now.
func (c *converter) context() []byte {
	ctx := map[string]string{}
	if c.cwd != "" {
		ctx["cwd"] = c.cwd
	}
	if c.branch != "" {
		ctx["gitBranch"] = c.branch
	}
	if len(ctx) == 0 {
		return nil
	}
	return blocks.MustJSON(ctx)
}

// requestOf returns what a user message asks, for the session's title: not the context
// Codex adds (<environment_context>, <user_instructions>), and from an IDE's message only
// the request.
func requestOf(blocks []session.RecordBlock) string {
	var t struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(blocks[0].JSON, &t) != nil || strings.HasPrefix(strings.TrimSpace(t.Text), "<") {
		return ""
	}
	if _, request, ok := strings.Cut(t.Text, "## My request for Codex:"); ok {
		return strings.TrimSpace(request)
	}
	return t.Text
}
