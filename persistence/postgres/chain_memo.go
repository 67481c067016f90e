package postgres

// The lock of a session reads its last main-chain message (lockSessionSQL) unless the writer
// remembers it from its own last commit to the session, with the message_count that commit
// left. Every commit that stores messages in a session adds them to its message_count
// (touch), whichever host writes, and nothing lowers it while the session exists; so the
// count the lock reads, when it is the one remembered, says that no writer stored a message
// in the session since, and the lookup is skipped. A count that differs has the lock read the
// message as before.

// chainMemo is what the writer remembers of a session's main chain after a commit.
type chainMemo struct {
	count   int64 // the session's message_count after the commit
	hasLast bool
	last    string
	lastSeq int64
}

// memoCount is lockSessionSQL's $2 for session sid: the count remembered, -1 for none.
func (w *writer) memoCount(sid int64) int64 {
	if m, ok := w.chains[sid]; ok {
		return m.count
	}
	return -1
}

// remember keeps, once the batch b has committed, the main chain of each session it
// followed, and forgets those it did not: a careful batch, a fork, a session judged by the
// server, a session branched (a branched session needs no chain).
func (w *writer) remember(b *batchWriter) {
	for sid, c := range b.chains {
		marks, judged := c.branches()
		if b.careful || !c.known || c.branched || !judged || marks {
			delete(w.chains, sid)
			continue
		}
		_, end := c.walk()
		var added int64
		if t := b.sessions[sid]; t != nil {
			added = t.messages
		}
		w.chains[sid] = chainMemo{count: c.count + added, hasLast: end.hasLast, last: end.last, lastSeq: end.lastSeq}
	}
}
