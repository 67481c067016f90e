package session

import (
	"bytes"

	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// resumedCallsScan is how many of its last records a session opened from the store reads
// for the tool calls of its last turn.
const resumedCallsScan = 16

// ResumingLoader is a store that loads a session together with the records an open reads
// for the tool calls of its last turn, in one read (one round trip to a server).
type ResumingLoader interface {
	// LoadSessionResuming is LoadSession, which also calls fn as ScanMessagesBackward does
	// for the session's main conversation from its last message back to seq
	// NextSeq-back, until fn returns false; for no message when the session branched.
	LoadSessionResuming(id string, back int64, fn func(*StoredMessage) bool) (SessionState, error)
}

// loadResumed loads session id for an open, and has it learn the tool calls of its last
// turn, which are what an agent that resumes answers first: so the first tool_result after
// a resume is known without reading the store on the JS thread while ingesting (see
// knownToolUse). It reads the main conversation's last records back to the last prompt, at
// most resumedCallsScan, with the load when the store can (ResumingLoader); a session that
// branched (as loaded) is left to knownToolUse, which knows the branch.
func (m *Manager) loadResumed(id string) (*Session, error) {
	var calls []resumedCall
	learn := func(msg *StoredMessage) bool {
		if msg.Role == "assistant" {
			for _, b := range msg.Blocks {
				if id := toolUseID(b); id != "" {
					calls = append(calls, resumedCall{id, msg.Seq})
				}
			}
		}
		return msg.Type != TypeUser
	}
	var state SessionState
	var err error
	if rl, ok := m.store.(ResumingLoader); ok {
		state, err = rl.LoadSessionResuming(id, resumedCallsScan, learn)
	} else if state, err = m.store.LoadSession(id); err == nil && state.NextSeq > 0 && !state.Branched {
		err = m.store.ScanMessagesBackward(id, max(0, state.NextSeq-resumedCallsScan), learn)
	}
	if err != nil {
		return nil, err
	}
	s := newSession(m, state)
	for _, c := range calls {
		s.asm.learnCall(c.id, c.seq)
	}
	return s, nil
}

// resumedCall is a tool call of the last turn of a session being opened, and its record.
type resumedCall struct {
	id  string
	seq int64
}

// toolUseID returns the id of a stored tool_use block, "" for any other block.
func toolUseID(block []byte) string {
	if !bytes.Contains(block, []byte(`"tool_use"`)) {
		return ""
	}
	info, err := blocks.CheckBlock(block)
	if err != nil || info.Type != blocks.BlockToolUse {
		return ""
	}
	return info.ToolUseID
}
