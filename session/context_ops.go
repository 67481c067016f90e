package session

// ContextOp is an Op of context building or token counting (counts, summaries, compaction
// boundaries, the folded session state), declared in those packages. Its writes are
// bookkeeping beside the messages, not activity, so they leave a session's listing (when it
// was last updated) alone.
type ContextOp interface {
	SessionOp
	contextOp()
}

// ContextOpBase, embedded in an op type declared outside session, makes it a ContextOp
// (with its SessionOf): the Op interface is sealed so that a Store is handed only the
// changes it knows, and the packages built on session declare theirs this way.
type ContextOpBase struct{}

func (ContextOpBase) op()        {}
func (ContextOpBase) contextOp() {}
