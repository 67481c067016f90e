package session

import (
	"bytes"

	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// resumedCallsScan is how many of its last records a session opened from the store reads
// for the tool calls of its last turn.
const resumedCallsScan = 16

// learnResumedCalls has a session opened from the store learn the tool calls of its last
// turn, which are what an agent that resumes answers first: so the first tool_result after
// a resume is known without reading the store on the JS thread while ingesting (see
// knownToolUse). It reads the main conversation's last records back to the last prompt, at
// most resumedCallsScan; a session that branched (as loaded) is left to knownToolUse, which
// knows the branch. The session is new and not shared yet.
func (s *Session) learnResumedCalls(branched bool) error {
	if s.chain.nextSeq == 0 || branched {
		return nil
	}
	return s.mgr.store.ScanMessagesBackward(s.id, max(0, s.chain.nextSeq-resumedCallsScan), func(m *StoredMessage) bool {
		if m.Role == "assistant" {
			for _, b := range m.Blocks {
				if id := toolUseID(b); id != "" {
					s.asm.learnCall(id, m.Seq)
				}
			}
		}
		return m.Type != TypeUser
	})
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
