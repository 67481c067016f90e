package session

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session/stream"
)

// Ingest records one stream chunk: the assembler turns it into records, which are queued
// together when the chunk is done (see gather). It validates the chunk before changing
// anything, so a bad chunk returns an error (ErrInvalidChunk, ErrUnknownToolUse) and leaves
// the session as it was. It never waits on disk but for a tool_result answering a call the
// session does not know of (knownToolUse), the one path that reads the store: the calls it
// made, and those of its last turn when it was opened (loadResumed), it knows; an
// older call's result, or one to a subagent's call or in a session that branched, made by
// an earlier process, is looked up.
func (s *Session) Ingest(c stream.Chunk) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	defer s.gather()()
	if c.Kind != stream.ChunkToolResult {
		return s.asm.ingest(c)
	}
	if err := checkToolResult(c); err != nil {
		return err
	}
	if err := s.knownToolUse(c.ToolUseID); err != nil {
		return err
	}
	s.asm.toolResult(c)
	return nil
}

// knownToolUse checks that id names a tool_use of the conversation: one the assembler
// knows, or one recorded on the branch that ends at the head, which it then learns. A call
// a rewind left off the branch is not answered any more. The session is locked.
func (s *Session) knownToolUse(id string) error {
	if s.asm.knows(id) {
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
	s.asm.learnCall(id, seq)
	return nil
}
