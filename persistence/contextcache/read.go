package contextcache

import (
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
)

// InConversation selects the records of the main conversation: messages (a record that is
// not one has no role) not on a subagent's sidechain.
const InConversation = `NOT is_sidechain AND role <> ''`

// Reads are the reads of contextbuild.CacheStore, and tokens.Store's FirstUncounted, on the
// sessions Session opens. A backend's Store embeds them.
type Reads struct {
	Session Session
}

// ContextIndex returns the totals of the last counted message and the latest boundary.
func (r Reads) ContextIndex(sessionID string) (contextbuild.ContextIndex, error) {
	idx := contextbuild.ContextIndex{LastSeq: -1}
	err := r.Session(sessionID, "reading the context index", func(db DB, sid int64) error {
		err := db.Query(`SELECT seq, turn, cum_tokens, cum_pruned FROM messages WHERE sid = ? AND cum_tokens IS NOT NULL
			AND `+InConversation+` ORDER BY seq DESC LIMIT 1`, []any{sid}, func(row []any) error {
			idx.LastSeq, idx.LastTurn = row[0].(int64), row[1].(int64)
			idx.Total = contextbuild.Cum{Tokens: row[2].(int64), Pruned: row[3].(int64)}
			return nil
		})
		if err != nil {
			return err
		}
		return db.Query(`SELECT boundary_seq, reason, tokens_before, tokens_after, created_at FROM compactions
			WHERE sid = ? ORDER BY id DESC LIMIT 1`, []any{sid}, func(row []any) error {
			c := scanCompaction(row)
			idx.Boundary = &c
			return nil
		})
	})
	return idx, err
}

// FirstUncounted returns the first message without cumulative counts.
func (r Reads) FirstUncounted(sessionID string) (int64, bool, error) {
	return r.optionalSeq(sessionID, "finding uncounted messages",
		`SELECT MIN(seq) FROM messages WHERE sid = ? AND cum_tokens IS NULL AND status <> 'streaming'`)
}

// CumAt returns the cumulative counts through message seq.
func (r Reads) CumAt(sessionID string, seq int64) (contextbuild.Cum, error) {
	var cum contextbuild.Cum
	if seq < 0 {
		return cum, nil
	}
	err := r.Session(sessionID, "reading a cumulative count", func(db DB, sid int64) error {
		return db.Query(`SELECT cum_tokens, cum_pruned FROM messages WHERE sid = ? AND seq = ?`, []any{sid, seq},
			func(row []any) error {
				cum.Tokens, _ = row[0].(int64)
				cum.Pruned, _ = row[1].(int64)
				return nil
			})
	})
	return cum, err
}

// FirstSeqReaching returns the first message whose cumulative count reaches tokens.
func (r Reads) FirstSeqReaching(sessionID string, tokens int64) (int64, bool, error) {
	return r.optionalSeq(sessionID, "searching cumulative counts",
		`SELECT seq FROM messages WHERE sid = ? AND cum_tokens >= ? ORDER BY cum_tokens, seq LIMIT 1`, tokens)
}

// TurnStart returns the first seq of a turn.
func (r Reads) TurnStart(sessionID string, turn int64) (int64, bool, error) {
	return r.optionalSeq(sessionID, "finding a turn", `SELECT MIN(seq) FROM messages WHERE sid = ? AND turn = ? AND `+InConversation, turn)
}

// CutAtOrAfter returns the first prompt, or with steps the first prompt or assistant
// message, at or after seq.
func (r Reads) CutAtOrAfter(sessionID string, seq int64, steps bool) (int64, bool, error) {
	return r.optionalSeq(sessionID, "finding a cut", `SELECT MIN(seq) FROM messages WHERE sid = ? AND seq >= ?
		AND (type = 'user' OR (? AND role = 'assistant')) AND `+InConversation, seq, steps)
}

// CutAtOrBefore returns the last prompt, or with steps the last prompt or assistant
// message, at or before seq.
func (r Reads) CutAtOrBefore(sessionID string, seq int64, steps bool) (int64, bool, error) {
	return r.optionalSeq(sessionID, "finding a cut", `SELECT MAX(seq) FROM messages WHERE sid = ? AND seq <= ?
		AND (type = 'user' OR (? AND role = 'assistant')) AND `+InConversation, seq, steps)
}

// optionalSeq runs a query for one seq, which may be NULL or missing.
func (r Reads) optionalSeq(sessionID, what, query string, args ...any) (int64, bool, error) {
	seq, found := int64(0), false
	err := r.Session(sessionID, what, func(db DB, sid int64) error {
		return db.Query(query, append([]any{sid}, args...), func(row []any) error {
			seq, found = row[0].(int64)
			return nil
		})
	})
	return seq, found, err
}

// Summaries returns the cached summaries that end at or after minTo, by end.
func (r Reads) Summaries(sessionID string, minTo int64) ([]contextbuild.Summary, error) {
	var list []contextbuild.Summary
	err := r.Session(sessionID, "reading summaries", func(db DB, sid int64) error {
		return db.Query(`SELECT from_seq, to_seq, message_count, tokens_before, tokens_after, model, text, created_at
			FROM summaries WHERE sid = ? AND to_seq >= ? ORDER BY to_seq, from_seq`, []any{sid, minTo},
			func(row []any) error {
				list = append(list, contextbuild.Summary{FromSeq: row[0].(int64), ToSeq: row[1].(int64),
					MessageCount: row[2].(int64), TokensBefore: row[3].(int64), TokensAfter: row[4].(int64),
					Model: string(rowvalue.Bytes(row[5])), Text: string(rowvalue.Bytes(row[6])), CreatedAt: time.UnixMilli(row[7].(int64)).UTC()})
				return nil
			})
	})
	return list, err
}

// Counts calls fn with the counts of each counted record, in seq order.
func (r Reads) Counts(sessionID string, fn func(seq int64, c contextbuild.Cum)) error {
	return r.Session(sessionID, "reading counts", func(db DB, sid int64) error {
		return db.Query(`SELECT seq, tokens, pruned_tokens FROM messages WHERE sid = ? AND tokens IS NOT NULL ORDER BY seq`,
			[]any{sid}, func(row []any) error {
				fn(row[0].(int64), contextbuild.Cum{Tokens: row[1].(int64), Pruned: row[2].(int64)})
				return nil
			})
	})
}

// Compactions returns a session's compaction boundaries, oldest first.
func (r Reads) Compactions(sessionID string) ([]contextbuild.Compaction, error) {
	var list []contextbuild.Compaction
	err := r.Session(sessionID, "reading compactions", func(db DB, sid int64) error {
		return db.Query(`SELECT boundary_seq, reason, tokens_before, tokens_after, created_at FROM compactions
			WHERE sid = ? ORDER BY id`, []any{sid}, func(row []any) error {
			list = append(list, scanCompaction(row))
			return nil
		})
	})
	return list, err
}

func scanCompaction(row []any) contextbuild.Compaction {
	return contextbuild.Compaction{Seq: row[0].(int64), Trigger: string(rowvalue.Bytes(row[1])), TokensBefore: row[2].(int64),
		TokensAfter: row[3].(int64), CreatedAt: time.UnixMilli(row[4].(int64)).UTC()}
}

// ContextState returns the session state folded so far, and through which message.
func (r Reads) ContextState(sessionID string) ([]byte, int64, error) {
	var state []byte
	through := int64(-1)
	err := r.Session(sessionID, "reading the context state", func(db DB, sid int64) error {
		return db.Query(`SELECT state, through FROM context_states WHERE sid = ?`, []any{sid}, func(row []any) error {
			state, through = append([]byte(nil), rowvalue.Bytes(row[0])...), row[1].(int64)
			return nil
		})
	})
	return state, through, err
}
