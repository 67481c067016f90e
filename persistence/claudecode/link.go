package claudecode

import (
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// link finishes the records of a file once all are read. It puts each sidechain record on
// its chain and links the chain to the tool call that ran it; marks each record that
// continues the message before it on its chain (an assistant message written one block per
// line, or tool results written one per line); counts each API response's usage once, on
// its last line (countUsageOnce); and encodes the envelopes' extras.
func (c *converter) link(recs []importing.Record, agentCalls map[string]string) {
	lastOnChain := map[string]int{}    // chain → index of its last message
	chainOf := map[string]string{}     // uuid of a sidechain record → its chain
	callOfChain := map[string]string{} // chain → the tool call that ran it
	for i := range recs {
		r, info := &recs[i], &c.infos[i]
		r.Usage = info.usage
		chain := ""
		if r.IsSidechain {
			chain = sidechainKey(r, info, chainOf)
			call, seen := callOfChain[chain]
			if !seen {
				call = c.callOf(info, agentCalls)
				callOfChain[chain] = call
			}
			r.ParentToolUseID, info.extra.ParentToolUseID = call, call
		}
		if r.Role == "" {
			continue
		}
		if j, ok := lastOnChain[chain]; ok && continues(&recs[j], &c.infos[j], r, info) {
			r.Continues = true
			if r.Role == "assistant" {
				recs[j].Usage = nil // the same request: its usage counts once, on the last line
			}
		}
		lastOnChain[chain] = i
	}
	countUsageOnce(recs, c.infos)
	for i := range recs {
		info := &c.infos[i]
		info.extra.Source = blocks.MustJSON(info.source)
		recs[i].Extra = info.extra.Encode()
	}
}

// sidechainKey names the chain of a sidechain record: its subagent's id, or for records of
// an older Claude Code that wrote sidechains inline without one, the chain's first record.
func sidechainKey(r *importing.Record, info *recordInfo, chainOf map[string]string) string {
	key := "agent:" + info.extra.AgentID
	if info.extra.AgentID == "" {
		if parentChain, ok := chainOf[r.ParentUUID]; ok {
			key = parentChain
		} else {
			key = "root:" + r.UUID
		}
	}
	chainOf[r.UUID] = key
	return key
}

// callOf finds the tool call that ran the sidechain whose first record is info: by the
// subagent's id in the tool results of the parent transcript or of this one, else (inline
// sidechains) by the prompt the Task call gave.
func (c *converter) callOf(info *recordInfo, agentCalls map[string]string) string {
	if id := info.extra.AgentID; id != "" {
		if call, ok := agentCalls[id]; ok {
			return call
		}
		return c.agentCalls[id]
	}
	return c.taskPrompts[info.prompt]
}

// continues reports whether record r continues message p, the message before it on its
// chain: the next line of the same assistant message, or more tool results.
func continues(p *importing.Record, pInfo *recordInfo, r *importing.Record, info *recordInfo) bool {
	switch {
	case r.Role != p.Role:
		return false
	case r.Role == "assistant":
		return info.messageID != "" && info.messageID == pInfo.messageID
	default:
		return r.Type == session.TypeToolResult && p.Type == session.TypeToolResult
	}
}
