package migrate

import (
	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// readSession reads a session of the source as an import takes it: the session to create
// and its records, each with its stored message fields and envelope extras byte for byte
// (an archive would re-encode them), so that the target gives the same envelopes.
func readSession(from *session.Manager, id string) (importing.ImportTarget, []importing.Record, error) {
	var target importing.ImportTarget
	var recs []importing.Record
	err := from.Export(id, func(st session.SessionState, scan session.Scan) error {
		info := st.Info
		info.MessageCount, info.Status, info.Corruption = 0, session.StatusActive, ""
		tracker := st.Tracker
		target = importing.ImportTarget{Info: info, Tracker: &tracker}
		return scan(func(m *session.StoredMessage) error {
			rec, err := record(m)
			recs = append(recs, rec)
			return err
		})
	})
	return target, countUsageOnce(recs), err
}

// record copies a stored message, whose slices are valid only during the scan.
func record(m *session.StoredMessage) (importing.Record, error) {
	rec := importing.Record{
		UUID: m.UUID, ParentUUID: m.ParentUUID, Type: m.Type, Role: m.Role, CreatedAt: m.CreatedAt,
		Provider: m.Provider, RequestID: m.RequestID, Status: m.Status, IsSidechain: m.IsSidechain,
		Continues: m.Continues, Meta: clone(m.Meta), Extra: clone(m.Extra),
	}
	if rec.Status == session.MessageStreaming { // its writer is not the target's
		rec.Status = session.MessageInterrupted
	}
	if m.IsSidechain {
		var extra struct {
			ParentToolUseID string `json:"parentToolUseId"`
		}
		_ = json.Unmarshal(m.Extra, &extra) // no extras, no call: the head's turn
		rec.ParentToolUseID = extra.ParentToolUseID
	}
	for _, b := range m.Blocks {
		info, err := blocks.CheckBlock(b)
		if err != nil {
			return rec, err
		}
		block := session.RecordBlock{JSON: clone(b)}
		if info.Type == blocks.BlockToolUse {
			block.ToolUseID = info.ToolUseID
		}
		rec.Blocks = append(rec.Blocks, block)
	}
	if rec.Role == "assistant" {
		var meta struct {
			Usage json.RawMessage `json:"usage"`
		}
		if json.Unmarshal(m.Meta, &meta) == nil && len(meta.Usage) > 0 && meta.Usage[0] == '{' {
			if u, err := session.ParseUsage(meta.Usage); err == nil {
				rec.Usage = &u
			}
		}
	}
	return rec, nil
}

// countUsageOnce keeps the usage of an assistant message written over several records on
// its last record only, as the usage log counted it.
func countUsageOnce(recs []importing.Record) []importing.Record {
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

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
