package postgres

import "github.com/sessionkeep/sessionkeep/session"

// A session's token tracker is stored whole by each SetTracker, one per turn of a stream:
// of those a batch gathers only the last per session matters, stored with the gathered
// blocks (queueBlocks), so that the tracker's UPDATE neither runs once per turn nor ends the
// run of messages gathered for one statement (messages_batch.go).

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

// queueTrackers adds the gathered trackers to the pipeline.
func (b *batchWriter) queueTrackers() {
	for sid, tr := range b.trackers {
		b.pending.Queue(setTrackerSQL, trackerArgs(sid, tr)...)
		b.results = append(b.results, pipelined{})
	}
	clear(b.trackers)
}

// setTrackerSQL stores a session's tracker.
const setTrackerSQL = `UPDATE sessions SET input_tokens = $1, output_tokens = $2, cache_read_tokens = $3,
	cache_creation_tokens = $4, context_tokens = $5 WHERE sid = $6`

// trackerArgs are setTrackerSQL's arguments for session sid's tracker.
func trackerArgs(sid int64, tr session.TokenTracker) []any {
	return []any{tr.InputTokens, tr.OutputTokens, tr.CacheReadInputTokens, tr.CacheCreationInputTokens, tr.ContextTokens, sid}
}
