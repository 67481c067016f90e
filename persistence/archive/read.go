package archive

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// headerLine is the header of an archive.
type headerLine struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	Session json.RawMessage `json:"session"`
}

// sessionHeader is the session of a header.
type sessionHeader struct {
	session.SessionInfo
	CreatedAt    string                `json:"createdAt"`
	UpdatedAt    string                `json:"updatedAt"`
	TokenTracker *session.TokenTracker `json:"tokenTracker"`
}

// ReadJSONL reads an archive in JSONL. progress, unless nil, is called with the bytes read
// so far. A damaged line is reported in Skipped and left out; an archive without its
// header is an error.
func ReadJSONL(r io.Reader, path string, progress func(int64)) (*transcript.File, error) {
	file := &transcript.File{Path: path}
	in := transcript.NewLines(r, progress)
	haveHeader := false
	var recs []importing.Record
	for {
		line, n, ok, err := in.Next()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if !ok {
			break
		}
		if !haveHeader {
			if file.Target, err = readHeader(line); err != nil {
				return nil, err
			}
			haveHeader = true
			continue
		}
		rec, err := readEnvelope(line)
		if err != nil {
			file.Skipped = append(file.Skipped, transcript.Skipped{File: path, Line: n, Reason: err.Error()})
			continue
		}
		recs = append(recs, rec)
	}
	if !haveHeader {
		return nil, fmt.Errorf("not a sessionkeep archive: no header line")
	}
	file.Records = finish(recs)
	return file, nil
}

// ReadJSON reads an archive that is one JSON document.
func ReadJSON(r io.Reader, path string, progress func(int64)) (*transcript.File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if progress != nil {
		progress(int64(len(data)))
	}
	var doc struct {
		headerLine
		Envelopes []json.RawMessage `json:"envelopes"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a sessionkeep archive: %v", err)
	}
	file := &transcript.File{Path: path}
	head, _ := json.Marshal(doc.headerLine)
	if file.Target, err = readHeader(head); err != nil {
		return nil, err
	}
	var recs []importing.Record
	for i, env := range doc.Envelopes {
		rec, err := readEnvelope(env)
		if err != nil {
			file.Skipped = append(file.Skipped, transcript.Skipped{File: path, Line: 0, Reason: fmt.Sprintf("envelopes[%d]: %v", i, err)})
			continue
		}
		recs = append(recs, rec)
	}
	file.Records = finish(recs)
	return file, nil
}

// readHeader reads the session an archive restores.
func readHeader(line []byte) (importing.ImportTarget, error) {
	var h headerLine
	if err := json.Unmarshal(line, &h); err != nil || h.Format != Format {
		return importing.ImportTarget{}, fmt.Errorf("not a sessionkeep archive: the first line is not its header")
	}
	if h.Version != Version {
		return importing.ImportTarget{}, fmt.Errorf("sessionkeep archive version %d: this sessionkeep reads version %d", h.Version, Version)
	}
	var s sessionHeader
	if err := json.Unmarshal(h.Session, &s); err != nil || s.ID == "" {
		return importing.ImportTarget{}, fmt.Errorf("sessionkeep archive: the header has no session id")
	}
	info := s.SessionInfo
	info.CreatedAt, info.UpdatedAt = transcript.ParseTime(s.CreatedAt), transcript.ParseTime(s.UpdatedAt)
	if info.CreatedAt.IsZero() {
		info.CreatedAt = time.Now().UTC()
	}
	if info.UpdatedAt.IsZero() {
		info.UpdatedAt = info.CreatedAt
	}
	info.MessageCount = 0
	return importing.ImportTarget{Info: info, Tracker: s.TokenTracker}, nil
}

// envelopeFields are the envelope's own fields; every other one is an extra.
var envelopeFields = []string{"uuid", "parentUuid", "sessionId", "timestamp", "type", "provider", "requestId",
	"status", "turn", "isSidechain", "continuesPrevious", "message"}

// readEnvelope reads one envelope back into the record it was written from.
func readEnvelope(raw []byte) (importing.Record, error) {
	var rec importing.Record
	var env map[string]json.RawMessage
	if err := json.Unmarshal(raw, &env); err != nil || env == nil {
		return rec, fmt.Errorf("not a JSON object")
	}
	var head struct {
		UUID        string  `json:"uuid"`
		ParentUUID  *string `json:"parentUuid"`
		Timestamp   string  `json:"timestamp"`
		Type        string  `json:"type"`
		Provider    string  `json:"provider"`
		RequestID   string  `json:"requestId"`
		Status      string  `json:"status"`
		IsSidechain bool    `json:"isSidechain"`
		Continues   bool    `json:"continuesPrevious"`
		// ParentToolUseID is an extra, read here for the record's turn.
		ParentToolUseID string `json:"parentToolUseId"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return rec, fmt.Errorf("envelope: %v", err)
	}
	if head.UUID == "" || head.Type == "" {
		return rec, fmt.Errorf(`envelope: no "uuid" or "type"`)
	}
	rec = importing.Record{
		UUID: head.UUID, Type: head.Type, CreatedAt: transcript.ParseTime(head.Timestamp), Provider: head.Provider,
		RequestID: head.RequestID, Status: head.Status, IsSidechain: head.IsSidechain, Continues: head.Continues,
		ParentToolUseID: head.ParentToolUseID,
	}
	if head.ParentUUID != nil {
		rec.ParentUUID = *head.ParentUUID
	}
	if rec.Status == session.MessageStreaming { // its writer is not coming back
		rec.Status = session.MessageInterrupted
	}
	if err := readMessage(env["message"], &rec); err != nil {
		return rec, err
	}
	for _, f := range envelopeFields {
		delete(env, f)
	}
	if len(env) > 0 {
		rec.Extra, _ = json.Marshal(env)
	}
	return rec, nil
}

// readMessage reads an envelope's message: role, checked blocks, and the other fields.
func readMessage(raw json.RawMessage, rec *importing.Record) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(raw, &msg); err != nil || msg == nil {
		return fmt.Errorf("message: not an object")
	}
	if err := json.Unmarshal(msg["role"], &rec.Role); err != nil || (rec.Role != "user" && rec.Role != "assistant") {
		return fmt.Errorf(`message.role must be "user" or "assistant"`)
	}
	var content []json.RawMessage
	if err := json.Unmarshal(msg["content"], &content); err != nil {
		return fmt.Errorf("message.content must be an array of blocks")
	}
	for i, b := range content {
		info, err := blocks.CheckBlock(b)
		if err != nil {
			return fmt.Errorf("message.content[%d]: %v", i, err)
		}
		block := session.RecordBlock{JSON: b}
		if info.Type == blocks.BlockToolUse {
			block.ToolUseID = info.ToolUseID
		}
		rec.Blocks = append(rec.Blocks, block)
	}
	if usage, ok := msg["usage"]; ok && rec.Role == "assistant" && len(usage) > 0 && usage[0] == '{' {
		if u, err := session.ParseUsage(usage); err == nil {
			rec.Usage = &u
		}
	}
	delete(msg, "role")
	delete(msg, "content")
	if len(msg) > 0 {
		rec.Meta, _ = json.Marshal(msg)
	}
	return nil
}

// finish counts each assistant message's usage once: on the last record of a message
// written over several.
func finish(recs []importing.Record) []importing.Record {
	for i := len(recs) - 1; i > 0; i-- {
		if recs[i].Continues && recs[i].Role == "assistant" {
			for j := i - 1; j >= 0; j-- {
				if recs[j].Role == "assistant" && recs[j].IsSidechain == recs[i].IsSidechain {
					recs[j].Usage = nil
					break
				}
			}
		}
	}
	return recs
}
