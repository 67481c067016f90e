package claudecode

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// Version is the "version" of the records Write makes for messages that did not come from
// Claude Code: a version string, as readers of the format expect, that says who wrote it.
const Version = "0.0.0-sessionkeep"

// Write writes a session as a Claude Code transcript, one record a line. A record imported
// from Claude Code is given back field for field. Any other message becomes the record
// Claude Code would have written for it, with the session's project as its cwd when it has
// no context. Left out are blocks of another provider that Claude has no use for (an OpenAI
// reasoning item) and records of another format that are not messages; a record left out
// passes its place in the parentUuid chain to its parent.
func Write(w io.Writer, st session.SessionState, scan session.Scan) error {
	bw := bufio.NewWriterSize(w, 64*1024)
	wr := writer{st: st, out: bw, replaced: map[string]string{}}
	if err := scan(wr.record); err != nil {
		return err
	}
	return bw.Flush()
}

// writer writes the records of one session.
type writer struct {
	st       session.SessionState
	out      *bufio.Writer
	buf      bytes.Buffer
	replaced map[string]string // uuid of a record left out → the parent that takes its place
}

// record writes one stored record.
func (w *writer) record(m *session.StoredMessage) error {
	extra, src, err := decodeSource(m)
	if err != nil {
		return err
	}
	var rec map[string]any
	if src.Format == Format {
		rec = w.original(m, &extra, &src)
	} else {
		rec = w.made(m, &extra)
	}
	if rec == nil {
		w.replaced[m.UUID] = w.parent(m.ParentUUID)
		return nil
	}
	return w.encode(rec)
}

// encode writes rec as one line.
func (w *writer) encode(rec map[string]any) error {
	w.buf.Reset()
	enc := json.NewEncoder(&w.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return err
	}
	_, err := w.out.Write(w.buf.Bytes())
	return err
}

// original gives back a record read from Claude Code: its own fields, with those the
// envelope held put back where they were.
func (w *writer) original(m *session.StoredMessage, extra *session.EnvelopeExtra, src *source) map[string]any {
	rec := make(map[string]any, len(src.Record)+8)
	for k, v := range src.Record {
		rec[k] = v
	}
	putState(rec, extra)
	if m.RequestID != "" {
		rec["requestId"] = m.RequestID
	}
	if m.Role != "" {
		content := any(m.Blocks)
		if src.Content == contentString && len(m.Blocks) == 1 {
			var t struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(m.Blocks[0], &t) == nil {
				content = t.Text
			}
		}
		rec["message"] = message(m, content)
		if ids := toolResultIDsOf(m.Blocks); len(ids) == 1 {
			if result, ok := extra.ToolUseResults[ids[0]]; ok {
				rec["toolUseResult"] = result
			}
		}
	}
	return rec
}

// putState puts the per-message state the envelope held back into a record's own fields.
func putState(rec map[string]any, extra *session.EnvelopeExtra) {
	var ctx map[string]json.RawMessage
	if json.Unmarshal(extra.Context, &ctx) == nil {
		for _, name := range []string{"cwd", "gitBranch"} {
			if v, ok := ctx[name]; ok {
				rec[name] = v
			}
		}
	}
	if extra.Todos != nil {
		rec["todos"] = extra.Todos
	}
	if extra.ThinkingMetadata != nil {
		rec["thinkingMetadata"] = extra.ThinkingMetadata
	}
	if extra.AgentID != "" {
		rec["agentId"] = extra.AgentID
	}
}

// made makes the record Claude Code would have written for a message recorded by
// sessionkeep or imported from another format; nil for a record it has no place for.
func (w *writer) made(m *session.StoredMessage, extra *session.EnvelopeExtra) map[string]any {
	if m.Role == "" {
		return nil
	}
	list := make([]json.RawMessage, 0, len(m.Blocks))
	for _, b := range m.Blocks {
		if info, err := blocks.CheckBlock(b); err == nil && !foreignBlocks[info.Type] {
			list = append(list, b)
		}
	}
	if len(list) == 0 {
		return nil
	}
	rec := map[string]any{
		"parentUuid": nil, "isSidechain": m.IsSidechain, "userType": "external", "cwd": w.st.Info.ProjectPath,
		"sessionId": m.SessionID, "version": Version, "type": m.Role, "uuid": m.UUID, "timestamp": jsonenc.FormatTime(m.CreatedAt),
	}
	if parent := w.parent(m.ParentUUID); parent != "" {
		rec["parentUuid"] = parent
	}
	putState(rec, extra)
	if m.RequestID != "" {
		rec["requestId"] = m.RequestID
	}
	msg := message(m, list)
	if m.Role == "assistant" {
		w.completeAssistant(msg, m)
	}
	rec["message"] = msg
	if len(extra.ToolUseResults) == 1 {
		for _, result := range extra.ToolUseResults {
			rec["toolUseResult"] = result
		}
	}
	return rec
}

// foreignBlocks are the block types of other providers that a Claude Code transcript has
// no use for: an OpenAI reasoning item (its encrypted content means nothing to Claude). A
// block of a type sessionkeep does not know is kept, as everywhere.
var foreignBlocks = map[string]bool{"reasoning": true}

// completeAssistant gives an assistant message the fields Claude Code always writes: an
// id, "type": "message", the model, and a stop reason and sequence (null when unknown).
func (w *writer) completeAssistant(msg map[string]any, m *session.StoredMessage) {
	if _, ok := msg["id"]; !ok {
		msg["id"] = "msg_" + strings.ReplaceAll(m.UUID, "-", "")
	}
	msg["type"] = "message"
	if _, ok := msg["model"]; !ok {
		msg["model"] = w.st.Info.Model
	}
	for _, name := range []string{"stop_reason", "stop_sequence"} {
		if _, ok := msg[name]; !ok {
			msg[name] = nil
		}
	}
}

// parent returns the uuid a record's parentUuid must name: its parent, or for a parent
// left out, the one that took its place.
func (w *writer) parent(uuid string) string {
	for {
		next, ok := w.replaced[uuid]
		if !ok {
			return uuid
		}
		uuid = next
	}
}

// message returns a stored message as an API message object with the given content.
func message(m *session.StoredMessage, content any) map[string]any {
	msg := map[string]any{}
	var meta map[string]json.RawMessage
	if json.Unmarshal(m.Meta, &meta) == nil {
		for k, v := range meta {
			msg[k] = v
		}
	}
	msg["role"] = m.Role
	if list, ok := content.([][]byte); ok {
		raws := make([]json.RawMessage, len(list))
		for i, b := range list {
			raws[i] = b
		}
		content = raws
	}
	msg["content"] = content
	return msg
}

// toolResultIDsOf returns the tool_use_id of each tool_result block.
func toolResultIDsOf(list [][]byte) []string {
	var ids []string
	for _, b := range list {
		if info, err := blocks.CheckBlock(b); err == nil && info.Type == blocks.BlockToolResult {
			ids = append(ids, info.ToolUseID)
		}
	}
	return ids
}
