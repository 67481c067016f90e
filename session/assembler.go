package session

import (
	"bytes"
	"fmt"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// Ingest records one stream chunk. It validates the chunk before changing anything, so a
// bad chunk returns an error (ErrInvalidChunk, ErrUnknownToolUse) and leaves the session
// as it was. It never waits on disk.
func (s *Session) Ingest(c stream.Chunk) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	defer s.gather()()
	switch c.Kind {
	case stream.ChunkMessageStart:
		return s.startAssistant(c)
	case stream.ChunkText:
		s.delta(blocks.BlockText, c.Text)
	case stream.ChunkThinking:
		s.delta(blocks.BlockThinking, c.Text)
	case stream.ChunkSignature:
		s.signature(c.Text)
	case stream.ChunkRedactedThinking:
		s.completeBlock(blocks.MustJSON(blocks.RedactedThinkingBlock{Type: blocks.BlockRedactedThinking, Data: c.Text}), "")
	case stream.ChunkToolUse:
		return s.toolUse(c)
	case stream.ChunkToolUseStart:
		return s.toolUseStart(c)
	case stream.ChunkToolUseDelta:
		return s.toolUseDelta(c)
	case stream.ChunkToolResult:
		return s.toolResult(c)
	case stream.ChunkDone:
		return s.done(c)
	case stream.ChunkError:
		s.streamError(c.Text)
	case stream.ChunkBlock:
		return s.wholeBlock(c)
	case stream.ChunkBlockStart:
		return s.startBlock(c)
	case stream.ChunkBlockFields:
		return s.setBlockFields(c)
	default:
		return fmt.Errorf("%w: unknown chunk type", ErrInvalidChunk)
	}
	return nil
}

// chunkError describes a chunk that cannot be recorded.
func chunkError(kind stream.ChunkKind, format string, args ...any) error {
	return fmt.Errorf("%w: %s chunk: %s", ErrInvalidChunk, kind, fmt.Sprintf(format, args...))
}

// assistant makes sure an assistant message is open: a chunk of model output after tool
// results starts the next assistant message even without a message_start.
func (s *Session) assistant() {
	if s.msg != nil && s.msg.hdr.Role == "assistant" {
		return
	}
	s.endOpen(false)
	side, extra := s.inheritedState()
	s.beginMessage(TypeAssistant, "assistant", messageMeta{}, "", "", side, extra)
}

// startAssistant begins a new assistant message, with the per-message state the chunk
// carries. One still open never got its done chunk, so it is ended as interrupted.
func (s *Session) startAssistant(c stream.Chunk) error {
	opts, err := ParseMessageOptions(c.State)
	if err != nil {
		return chunkError(c.Kind, "%v", err)
	}
	s.endOpen(true)
	side, extra := s.stateFor(opts)
	s.beginMessage(TypeAssistant, "assistant", messageMeta{ID: c.ID, Model: c.Model}, c.Provider, c.RequestID, side, extra)
	return nil
}

// delta appends streamed text or thinking, starting a new block when the kind changes.
func (s *Session) delta(kind, text string) {
	s.assistant()
	if s.blk == nil || s.blk.kind != kind {
		s.finishBlock()
		s.blk = &openBlock{kind: kind}
	}
	s.blk.text.WriteString(text)
	s.blk.dirty = true
	s.armCheckpoint()
}

// signature ends the thinking block streaming; a signature with no thinking before it is
// kept as a thinking block with empty text.
func (s *Session) signature(sig string) {
	s.assistant()
	if s.blk == nil || s.blk.kind != blocks.BlockThinking {
		s.finishBlock()
		s.blk = &openBlock{kind: blocks.BlockThinking}
	}
	s.blk.signature = &sig
	s.finishBlock()
}

// completeBlock adds a block that arrived whole to the assistant message.
func (s *Session) completeBlock(json []byte, toolUseID string) {
	s.assistant()
	s.finishBlock()
	s.putBlock(json, toolUseID)
}

func (s *Session) toolUse(c stream.Chunk) error {
	if c.ID == "" {
		return chunkError(c.Kind, "field 'id' must not be empty")
	}
	block, ok := blocks.ToolUseBlockJSON(c.ID, c.Name, c.JSON)
	if !ok || c.JSON[0] != '{' {
		return chunkError(c.Kind, "field 'input' must be an object")
	}
	s.completeBlock(block, c.ID)
	return nil
}

func (s *Session) toolUseStart(c stream.Chunk) error {
	if c.ID == "" {
		return chunkError(c.Kind, "field 'id' must not be empty")
	}
	s.assistant()
	s.finishBlock()
	s.blk = &openBlock{kind: blocks.BlockToolUse, id: c.ID, name: c.Name}
	return nil
}

func (s *Session) toolUseDelta(c stream.Chunk) error {
	if s.blk == nil || s.blk.kind != blocks.BlockToolUse {
		return chunkError(c.Kind, "no tool_use_start before it")
	}
	s.blk.text.WriteString(c.Text)
	s.blk.dirty = true
	s.armCheckpoint()
	return nil
}

// toolResult adds a tool result. Tool results after an assistant message form the next
// user message, as the API wants.
func (s *Session) toolResult(c stream.Chunk) error {
	if err := blocks.CheckToolResultContent(c.JSON); err != nil {
		return chunkError(c.Kind, "field 'content': %v", err)
	}
	if len(c.Raw) > 0 && (c.Raw[0] != '{' || !json.Valid(c.Raw)) {
		return chunkError(c.Kind, "field 'raw' must be an object")
	}
	if err := s.knownToolUse(c.ToolUseID); err != nil {
		return err
	}
	side := s.toolUseChain(c.ToolUseID)
	if s.msg == nil || s.msg.hdr.Type != TypeToolResult || s.msg.side != side {
		s.endOpen(false)
		s.beginMessage(TypeToolResult, "user", messageMeta{}, "", "", side, s.chainState(side))
	}
	s.putBlock(blocks.ToolResultJSON(c.ToolUseID, c.JSON, c.IsError), "")
	if len(c.Raw) > 0 {
		if s.msg.extra.ToolUseResults == nil {
			s.msg.extra.ToolUseResults = map[string]json.RawMessage{}
		}
		s.msg.extra.ToolUseResults[c.ToolUseID] = s.redact(s.mgr.redactor.JSON(bytes.Clone(c.Raw)))
	}
	return nil
}

// knownToolUse checks that id names a tool_use of the conversation: recorded on the branch
// that ends at the head, or still streaming (a streamed tool_use ends only when the next
// block or message begins). A call a rewind left off the branch is not answered any more.
func (s *Session) knownToolUse(id string) error {
	if _, ok := s.toolUses[id]; ok {
		return nil
	}
	if s.blk != nil && s.blk.blockType() == blocks.BlockToolUse && s.blk.id == id {
		return nil
	}
	s.queueGathered() // the store is read: what this call recorded so far must be in it
	seq, found, err := s.mgr.store.ToolUseSeq(s.id, id)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%w: no tool_use with id %q in session %s", ErrUnknownToolUse, id, s.id)
	}
	on, err := s.onBranchLocked(seq)
	if err != nil {
		return err
	}
	if !on {
		return fmt.Errorf("%w: the tool_use %q of session %s is not on the branch at the head any more (a rewind left it off)", ErrUnknownToolUse, id, s.id)
	}
	s.toolUses[id] = knownCall{seq: seq} // recorded by an earlier process: its chain is not known here
	return nil
}

// done ends the assistant message with its stop reason and usage. Usage that arrives
// with no assistant message open still counts in the token tracker.
func (s *Session) done(c stream.Chunk) error {
	usage, err := ParseUsage(c.Usage)
	if err != nil || (len(c.Usage) > 0 && c.Usage[0] != '{') {
		return chunkError(c.Kind, "field 'usage' must be an object of token counts")
	}
	hasUsage := len(c.Usage) > 0
	if s.msg == nil || s.msg.hdr.Role != "assistant" {
		s.endOpen(false)
		if hasUsage {
			s.countUsage(usage)
		}
		return nil
	}
	m := s.msg
	if c.ID != "" {
		m.meta.ID = c.ID
	}
	if c.Model != "" {
		m.meta.Model = c.Model
	}
	m.meta.StopReason = c.StopReason
	if c.StopSequence != "" {
		m.meta.StopSequence = &c.StopSequence
	}
	if hasUsage {
		m.meta.Usage = bytes.Clone(c.Usage)
		m.usage, m.hasUsage = usage, true
	}
	s.endMessage(MessageComplete)
	return nil
}

// streamError ends the assistant message streaming, keeping what arrived, and records the
// error on it. Tool results already given are complete whatever the stream does next; with
// no assistant output to mark, the error is not recorded.
func (s *Session) streamError(message string) {
	if s.msg == nil {
		return
	}
	if s.msg.hdr.Role != "assistant" {
		s.endOpen(false)
		return
	}
	s.msg.extra.Error = message
	s.endMessage(MessageError)
}
