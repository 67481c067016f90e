package claudecode

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// converter turns the lines of one transcript into records, and learns on the way what
// the session and its sidechains need.
type converter struct {
	sessionID    string
	subpath      string // the part of the transcript the records are (ReadPart)
	cwd, model   string
	lastCwd      string // the working folder of the latest record that names one
	summary      string
	firstPrompt  string
	firstCommand string
	taskPrompts  map[string]string // the prompt of a Task call → its tool_use id
	agentCalls   map[string]string // a subagent's id → the tool_use id of the call that ran it
	infos        []recordInfo      // what linking needs of each record, by index
	// whole says taskPrompts and agentCalls hold what the whole file says already (a
	// streaming reading's second, Stream): learn leaves them as they are, as Read's linking
	// finds them.
	whole bool

	// keepUnreadable keeps a line whose message sessionkeep cannot read (a block without
	// the fields it must have) as a record that is not a message, its fields verbatim,
	// rather than leaving it out (ReadPart).
	keepUnreadable bool
}

// recordInfo is what linking the records needs of one of them.
type recordInfo struct {
	messageID string       // the API message id of an assistant record
	response  responseName // the API response the record is part of (responseOf)
	prompt    string       // the text of a user record
	usage     *session.Usage
	extra     session.EnvelopeExtra
	source    source
}

// source is the envelope's source of a Claude Code record: the fields the envelope does not
// hold otherwise, and whether the message content was a string rather than blocks.
type source struct {
	Format  string                     `json:"format"`
	Record  map[string]json.RawMessage `json:"record"`
	Content string                     `json:"content,omitempty"` // "string"
	Subpath string                     `json:"subpath,omitempty"` // the part read by ReadPart
}

// contentString marks a message whose content was a string.
const contentString = "string"

// record converts one line. An error means the line is damaged and is left out.
func (c *converter) record(l line, occurrences transcript.Occurrences) (importing.Record, error) {
	f := l.fields
	typ, _ := stringField(f, "type")
	rec := importing.Record{Type: typ}
	info := recordInfo{source: source{Format: Format, Record: f, Subpath: c.subpath}}
	if err := c.message(f, &rec, &info); err != nil && !c.keepUnreadable {
		return rec, err
	}
	rec.UUID, _ = stringField(f, "uuid")
	if rec.UUID == "" {
		rec.UUID = transcript.SyntheticUUID(c.sessionID, l.raw, occurrences.Next(l.raw))
	}
	if typ == snapshotType {
		rec.FileSnapshot = c.fileSnapshot(l.raw, f, rec.UUID)
	}
	rec.ParentUUID, _ = stringField(f, "parentUuid")
	ts, _ := stringField(f, "timestamp")
	rec.CreatedAt = transcript.ParseTime(ts)
	rec.IsSidechain = bytes.Equal(f["isSidechain"], []byte("true"))
	if id, ok := stringField(f, "requestId"); ok && id != "" {
		rec.RequestID = id
		delete(f, "requestId")
	}
	info.response = responseOf(&rec, &info)
	c.moveState(f, &info.extra)
	c.learn(f, &rec, &info)
	c.infos = append(c.infos, info)
	return rec, nil
}

// message moves a user or assistant record's message into rec: role, blocks and the
// other message fields. A record without a well-formed message keeps it verbatim.
func (c *converter) message(f map[string]json.RawMessage, rec *importing.Record, info *recordInfo) error {
	if rec.Type != "user" && rec.Type != "assistant" {
		return nil
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(f["message"], &msg) != nil || msg == nil {
		return nil
	}
	role, _ := stringField(msg, "role")
	if role != "user" && role != "assistant" {
		return nil
	}
	list, form, err := contentBlocks(msg["content"])
	if err != nil || list == nil {
		return err
	}
	rec.Role, rec.Blocks, info.source.Content = role, list, form
	if role == "assistant" {
		rec.Type = session.TypeAssistant
		info.messageID, _ = stringField(msg, "id")
		if usage, ok := msg["usage"]; ok && len(usage) > 0 && usage[0] == '{' {
			if u, err := session.ParseUsage(usage); err == nil {
				info.usage = &u
			}
		}
	} else if hasToolResult(rec.Blocks) {
		rec.Type = session.TypeToolResult
	}
	delete(msg, "role")
	delete(msg, "content")
	if len(msg) > 0 {
		rec.Meta = blocks.MustJSON(msg)
	}
	delete(f, "message")
	c.moveToolUseResult(f, rec.Blocks, &info.extra)
	return nil
}

// contentBlocks checks message content: a string becomes one text block (form "string"),
// an array its blocks. Any other content is no message (nil blocks, no error).
func contentBlocks(content json.RawMessage) ([]session.RecordBlock, string, error) {
	content = bytes.TrimSpace(content)
	switch {
	case len(content) > 0 && content[0] == '"':
		var text string
		if err := json.Unmarshal(content, &text); err != nil {
			return nil, "", fmt.Errorf("message.content: %v", err)
		}
		return []session.RecordBlock{{JSON: blocks.MustJSON(map[string]string{"type": "text", "text": text})}}, contentString, nil
	case len(content) > 0 && content[0] == '[':
		var raws []json.RawMessage
		if err := json.Unmarshal(content, &raws); err != nil {
			return nil, "", fmt.Errorf("message.content: %v", err)
		}
		list := make([]session.RecordBlock, len(raws))
		for i, raw := range raws {
			info, err := blocks.CheckBlock(raw)
			if err != nil {
				return nil, "", fmt.Errorf("message.content[%d]: %v", i, err)
			}
			list[i] = session.RecordBlock{JSON: raw}
			if info.Type == blocks.BlockToolUse {
				list[i].ToolUseID = info.ToolUseID
			}
		}
		return list, "", nil
	}
	return nil, "", nil
}

// moveToolUseResult moves the tool's execution record of a record with one tool result
// into toolUseResults, by the result's tool_use_id.
func (c *converter) moveToolUseResult(f map[string]json.RawMessage, list []session.RecordBlock, extra *session.EnvelopeExtra) {
	raw, ok := f["toolUseResult"]
	if !ok {
		return
	}
	ids := toolResultIDs(list)
	if len(ids) != 1 {
		return
	}
	extra.ToolUseResults = map[string]json.RawMessage{ids[0]: raw}
	delete(f, "toolUseResult")
}

// moveState moves the per-message state the envelope models out of the record's fields:
// cwd and gitBranch (as the context), todos, thinkingMetadata and agentId.
func (c *converter) moveState(f map[string]json.RawMessage, extra *session.EnvelopeExtra) {
	var ctx bytes.Buffer
	for _, name := range []string{"cwd", "gitBranch"} {
		if v, ok := f[name]; ok && len(v) > 0 && v[0] == '"' {
			if ctx.Len() == 0 {
				ctx.WriteByte('{')
			} else {
				ctx.WriteByte(',')
			}
			fmt.Fprintf(&ctx, "%q:%s", name, v)
			delete(f, name)
		}
	}
	if ctx.Len() > 0 {
		ctx.WriteByte('}')
		extra.Context = ctx.Bytes()
	}
	if v, ok := f["todos"]; ok && len(v) > 0 && v[0] == '[' {
		extra.Todos = v
		delete(f, "todos")
	}
	if v, ok := f["thinkingMetadata"]; ok && len(v) > 0 && v[0] == '{' {
		extra.ThinkingMetadata = v
		delete(f, "thinkingMetadata")
	}
	if id, ok := stringField(f, "agentId"); ok && id != "" {
		extra.AgentID = id
		delete(f, "agentId")
	}
}

// learn notes what the session and the linking of sidechains need from a record.
func (c *converter) learn(f map[string]json.RawMessage, rec *importing.Record, info *recordInfo) {
	if cwd := contextField(info.extra.Context, "cwd"); cwd != "" {
		c.lastCwd = cwd
		if c.cwd == "" {
			c.cwd = cwd
		}
	}
	if rec.Type == "summary" {
		if s, ok := stringField(f, "summary"); ok {
			c.summary = s
		}
	}
	switch rec.Role {
	case "assistant":
		var meta struct {
			Model string `json:"model"`
		}
		if json.Unmarshal(rec.Meta, &meta) == nil && meta.Model != "" && meta.Model != "<synthetic>" {
			c.model = meta.Model
		}
		for _, b := range rec.Blocks {
			if b.ToolUseID != "" && !c.whole {
				c.noteTaskCall(b.JSON)
			}
		}
	case "user":
		info.prompt = firstText(rec.Blocks)
		isMeta := bytes.Equal(f["isMeta"], []byte("true"))
		if rec.Type == session.TypeUser && !rec.IsSidechain && !isMeta {
			c.notePrompt(info.prompt)
		}
		if c.whole {
			break
		}
		for agent, call := range agentRuns(info.extra.ToolUseResults) {
			if c.agentCalls == nil {
				c.agentCalls = map[string]string{}
			}
			c.agentCalls[agent] = call
		}
	}
}

// noteTaskCall remembers the prompt of a call of the Task tool, which ran a subagent.
func (c *converter) noteTaskCall(block []byte) {
	var call struct {
		ID    string `json:"id"`
		Name  string `json:"name"`
		Input struct {
			Prompt string `json:"prompt"`
		} `json:"input"`
	}
	if json.Unmarshal(block, &call) == nil && (call.Name == "Task" || call.Name == "Agent") && call.Input.Prompt != "" {
		c.taskPrompts[call.Input.Prompt] = call.ID
	}
}

// agentRuns returns the subagents that tool results say they ran (toolUseResult.agentId),
// by the tool call that ran each.
func agentRuns(results map[string]json.RawMessage) map[string]string {
	runs := map[string]string{}
	for call, raw := range results {
		var r struct {
			AgentID string `json:"agentId"`
		}
		if len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &r) == nil && r.AgentID != "" {
			runs[r.AgentID] = call
		}
	}
	return runs
}

func hasToolResult(list []session.RecordBlock) bool { return len(toolResultIDs(list)) > 0 }

// toolResultIDs returns the tool_use_id of each tool_result block.
func toolResultIDs(list []session.RecordBlock) []string {
	var ids []string
	for _, b := range list {
		info, err := blocks.CheckBlock(b.JSON)
		if err == nil && info.Type == blocks.BlockToolResult {
			ids = append(ids, info.ToolUseID)
		}
	}
	return ids
}

// firstText returns the text of the first text block.
func firstText(list []session.RecordBlock) string {
	for _, b := range list {
		var t struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(b.JSON, &t) == nil && t.Type == blocks.BlockText {
			return t.Text
		}
	}
	return ""
}

// contextField returns a string field of a context object.
func contextField(context []byte, name string) string {
	var ctx map[string]json.RawMessage
	if json.Unmarshal(context, &ctx) != nil {
		return ""
	}
	s, _ := stringField(ctx, name)
	return s
}

// commandName and commandArgs find the slash command a prompt of Claude Code ran.
var (
	commandName = regexp.MustCompile(`<command-name>([^<]*)</command-name>`)
	commandArgs = regexp.MustCompile(`<command-args>([^<]*)</command-args>`)
)

// notePrompt keeps what may name the session: its first prompt in words, else its first
// slash command with its arguments (the notes Claude Code adds in tags name nothing).
func (c *converter) notePrompt(text string) {
	trimmed := strings.TrimSpace(text)
	if !strings.HasPrefix(trimmed, "<") {
		if c.firstPrompt == "" {
			c.firstPrompt = trimmed
		}
		return
	}
	name := commandName.FindStringSubmatch(trimmed)
	if name == nil || c.firstCommand != "" {
		return
	}
	c.firstCommand = name[1]
	if args := commandArgs.FindStringSubmatch(trimmed); args != nil && strings.TrimSpace(args[1]) != "" {
		c.firstCommand += " " + strings.TrimSpace(args[1])
	}
}
