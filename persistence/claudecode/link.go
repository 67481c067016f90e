package claudecode

import (
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// link finishes the records of a file once all are read (linkRecord, one after another).
func (c *converter) link(recs []importing.Record, agentCalls map[string]string) {
	carriers := responseCarriers{}
	for i := range recs {
		carriers.note(&c.infos[i], i)
	}
	lk := newLinker(carriers.lastOnes(len(recs)))
	for i := range recs {
		c.linkRecord(lk, recs, c.infos, 0, i, agentCalls)
	}
}

// linker is what linking the records of a file keeps from one record to the next. What it
// holds is bounded, whatever the file's length: a chain of an inline sidechain that no
// later record can reach any more (its uuids left chainOf) is forgotten.
type linker struct {
	chains  map[string]*chain // chain key → what linking knows of it
	chainOf *recentChains     // uuid of a sidechain record → its chain
	waiting map[string]int    // chain → its last message, while that may still give up its usage (final)
	lasts   carrierSet        // the records that keep their API response's usage
	kept    int               // the first record of chainOf's current generation
}

// chain is what linking knows of one chain: its last message, the tool call that ran it,
// and the last record put on it.
type chain struct {
	end     chainEnd
	ended   bool // end holds a message
	call    string
	called  bool // call is known
	touched int
}

// chainEnd is the last message of a chain so far: the record and what linking knows of
// it, without their content (a file of inline sidechains has thousands of chains), and its
// place in the file.
type chainEnd struct {
	rec   importing.Record
	info  recordInfo
	index int
}

// endOf returns record i, r, as the last message of its chain.
func endOf(r *importing.Record, info *recordInfo, i int) chainEnd {
	rec, in := *r, *info
	rec.Blocks, rec.Meta, rec.Extra, rec.FileSnapshot = nil, nil, nil, nil
	in.source, in.extra, in.prompt = source{}, session.EnvelopeExtra{}, ""
	return chainEnd{rec: rec, info: in, index: i}
}

// recentChains maps the uuids of the latest sidechain records to their chains: a record
// names the one before it on its chain as its parent, so a map of every one (a million in
// a transcript of gigabytes that runs its subagents inline) is not needed. It keeps two
// generations of at most recentChainsKept uuids each; a record whose parent is older
// starts a chain of its own, on every reading alike.
type recentChains struct {
	now, before map[string]string
}

// recentChainsKept is how many uuids a generation of recentChains holds.
const recentChainsKept = 1 << 16

func (rc *recentChains) get(uuid string) (string, bool) {
	if chain, ok := rc.now[uuid]; ok {
		return chain, true
	}
	chain, ok := rc.before[uuid]
	return chain, ok
}

// put notes uuid's chain, and reports whether it began a generation (the oldest went).
func (rc *recentChains) put(uuid, chain string) (began bool) {
	if len(rc.now) >= recentChainsKept {
		rc.before, rc.now = rc.now, make(map[string]string, recentChainsKept)
		began = true
	}
	rc.now[uuid] = chain
	return began
}

// newLinker returns a linker that keeps each API response's usage on the records lasts
// names (a reading of the whole file made it).
func newLinker(lasts carrierSet) *linker {
	return &linker{chains: map[string]*chain{}, chainOf: &recentChains{now: map[string]string{}}, waiting: map[string]int{}, lasts: lasts}
}

// chainNamed returns the chain key names, made if it is new, and notes that record i is on it.
func (lk *linker) chainNamed(key string, i int) *chain {
	ch, ok := lk.chains[key]
	if !ok {
		ch = &chain{}
		lk.chains[key] = ch
	}
	ch.touched = i
	return ch
}

// forgetUnreachable drops the chains of inline sidechains (rootPrefix) whose records all
// left chainOf: no later record can name one of them as its parent, so none can join.
// Record i began chainOf's new generation, on chain joining (found by its parent before
// the oldest generation went); the generation before it began at lk.kept.
func (lk *linker) forgetUnreachable(i int, joining string) {
	for key, ch := range lk.chains {
		if ch.touched < lk.kept && key != joining && strings.HasPrefix(key, rootPrefix) {
			delete(lk.chains, key)
			delete(lk.waiting, key)
		}
	}
	lk.kept = i
}

// linkRecord finishes record i of the file, recs[i-base] (recs and infos hold the file's
// records from base on). It puts a sidechain record on its chain and links the chain to
// the tool call that ran it; marks a record that continues the message before it on its
// chain (an assistant message written one block per line, or tool results written one per
// line); counts each API response's usage once, on its last line (the line before, when it
// is still in recs, gives it up; responseCarriers names the last of a response's copies);
// and encodes the envelope's extra.
func (c *converter) linkRecord(lk *linker, recs []importing.Record, infos []recordInfo, base, i int, agentCalls map[string]string) {
	r, info := &recs[i-base], &infos[i-base]
	r.Usage = info.usage
	key := ""
	if r.IsSidechain {
		key = lk.sidechainKey(r, info, i)
	}
	ch := lk.chainNamed(key, i)
	if r.IsSidechain {
		if !ch.called {
			ch.call, ch.called = c.callOf(info, agentCalls), true
		}
		r.ParentToolUseID, info.extra.ParentToolUseID = ch.call, ch.call
	}
	if r.Role != "" {
		if ch.ended && continues(&ch.end.rec, &ch.end.info, r, info) {
			r.Continues = true
			if r.Role == "assistant" && ch.end.index >= base {
				recs[ch.end.index-base].Usage = nil // the same request: its usage counts once, on the last line
			}
		}
		ch.end, ch.ended = endOf(r, info, i), true
		if r.Role == "assistant" && info.usage != nil {
			lk.waiting[key] = i
		} else {
			delete(lk.waiting, key)
		}
	}
	lk.lasts.countOnce(r, info, i)
	info.extra.Source = blocks.MustJSON(info.source)
	r.Extra = info.extra.Encode()
}

// final returns how many records from base on no later record can change: those before
// the earliest assistant message with usage that is last on its chain (the next line of
// the same message takes its usage). When that holds back more than limit records, only
// the latest chain's last message is waited for: a chain left open that long (a sidechain
// that ended) is taken as ended.
func (lk *linker) final(base, n, limit int) int {
	earliest, latest := base+n, base
	for key, index := range lk.waiting {
		if index < base { // handed on already: nothing can change it now
			delete(lk.waiting, key)
			continue
		}
		earliest, latest = min(earliest, index), max(latest, index)
	}
	if base+n-earliest > limit {
		return latest - base
	}
	return earliest - base
}

// sidechainKey names the chain of sidechain record i, r: its subagent's id, or for records
// of an older Claude Code that wrote sidechains inline without one, the chain's first
// record (rootPrefix and its uuid).
func (lk *linker) sidechainKey(r *importing.Record, info *recordInfo, i int) string {
	key := "agent:" + info.extra.AgentID
	if info.extra.AgentID == "" {
		if parentChain, ok := lk.chainOf.get(r.ParentUUID); ok {
			key = parentChain
		} else {
			key = rootPrefix + r.UUID
		}
	}
	if lk.chainOf.put(r.UUID, key) {
		lk.forgetUnreachable(i, key)
	}
	return key
}

// rootPrefix begins the key of an inline sidechain's chain.
const rootPrefix = "root:"

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
