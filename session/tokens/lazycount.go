package tokens

import (
	"math"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
)

// CountMissing counts, once, the messages whose counts are missing: messages stored
// before token counting existed, a message a crash left interrupted, or counts dropped
// when a store closed. From the first gap on, every message's cumulative counts are
// written again, with the counts already stored kept.
func CountMissing(store Store, sessionID string) error {
	from, found, err := store.FirstUncounted(sessionID)
	if err != nil || !found {
		return err
	}
	names := ToolNames{}
	var ops []session.Op
	err = store.ScanContext(sessionID, from, math.MaxInt64, func(m *ContextMessage) error {
		if m.Status == session.MessageStreaming { // still being written; counted when it ends
			return nil
		}
		count := m.Count
		if !m.Counted {
			count = conversationCount(m.Role, m.Provider, m.IsSidechain, m.Blocks, usageOf(m.Meta), names)
		}
		ops = append(ops, SetTokens{SessionID: sessionID, Seq: m.Seq, Count: count})
		return nil
	})
	if err != nil {
		return err
	}
	store.Apply(ops...)
	return store.Sync()
}

// usageOf returns the usage a stored message's fields carry, if any.
func usageOf(meta []byte) *session.Usage {
	var m struct {
		Usage *session.Usage `json:"usage"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	return m.Usage
}
