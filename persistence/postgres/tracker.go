package postgres

import "github.com/sessionkeep/sessionkeep/session"

// A session's token tracker is stored whole by each SetTracker, one per turn of a stream:
// of those a batch gathers only the last per session matters, stored by the UPDATE that
// touch makes of the session's listing at the end of the batch (trackerColumns), so that
// the tracker costs no statement of its own and does not end the run of messages gathered
// for one statement (messages_batch.go).

// setTracker gathers session sid's tracker, or in a careful batch stores it at once.
func (b *batchWriter) setTracker(sid int64, tr session.TokenTracker) error {
	if b.careful {
		return b.queue(nil, setTrackerSQL, trackerArgs(sid, tr)...)
	}
	if b.trackers == nil {
		b.trackers = map[int64]session.TokenTracker{}
	}
	b.trackers[sid] = tr
	return nil
}

// setTrackerSQL stores a session's tracker.
const setTrackerSQL = `UPDATE sessions SET input_tokens = $1, output_tokens = $2, cache_read_tokens = $3,
	cache_creation_tokens = $4, context_tokens = $5 WHERE sid = $6`

// trackerArgs are setTrackerSQL's arguments for session sid's tracker.
func trackerArgs(sid int64, tr session.TokenTracker) []any {
	return append(trackerColumns(tr), sid)
}

// trackerColumns are the tracker's five columns, in setTrackerSQL's order.
func trackerColumns(tr session.TokenTracker) []any {
	return []any{tr.InputTokens, tr.OutputTokens, tr.CacheReadInputTokens, tr.CacheCreationInputTokens, tr.ContextTokens}
}

// gatheredTracker is trackerColumns of the tracker gathered for session sid, or five NULLs
// (the columns kept as they are) when the batch set none.
func (b *batchWriter) gatheredTracker(sid int64) []any {
	tr, ok := b.trackers[sid]
	if !ok {
		return []any{nil, nil, nil, nil, nil}
	}
	return trackerColumns(tr)
}
