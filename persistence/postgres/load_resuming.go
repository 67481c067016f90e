package postgres

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// LoadSessionResuming is LoadSession with the records an open reads for the tool calls of the
// session's last turn (session.ResumingLoader): the load's statement and the backward scan's go
// in one batch, one round trip, with their generic plans (planGeneric). A session another
// writer holds open is loaded as LoadSession loads it (recovered first when that writer is
// gone), then scanned.
func (s *Store) LoadSessionResuming(id string, back int64, fn func(*session.StoredMessage) bool) (session.SessionState, error) {
	var st session.SessionState
	othersOpen := false
	err := s.read(func(c conn) error {
		sid := int64(-1)
		r := backwardReader{sessionID: id, fn: fn, current: -1}
		err := c.queryBatch(planGeneric,
			batchQuery{loadStateSQL, []any{id, s.w.owner}, func(row []any) error {
				sid, othersOpen = loadStateRow(row, &st)
				return nil
			}},
			batchQuery{resumedSQL, []any{id, back, session.TypeUser}, func(row []any) error {
				if othersOpen { // read again once recovered
					return nil
				}
				return r.row(row)
			}},
		)
		if err == nil && !othersOpen {
			r.end()
		}
		if err != nil && !errors.Is(err, session.StopScan) {
			return storageError("loading session "+id, err)
		}
		if sid < 0 {
			return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
		}
		return nil
	})
	if err != nil || !othersOpen {
		return st, err
	}
	if st, err = s.LoadSession(id); err != nil || st.NextSeq == 0 || st.Branched {
		return st, err
	}
	return st, s.ScanMessagesBackward(id, max(0, st.NextSeq-back), fn)
}

// resumedSQL reads the main conversation of session $1 backward (backwardColumns) from its
// last message to seq NextSeq-$2, and no further than its last record of type $3 (where a
// scan for the last turn's calls stops); nothing when the session branched.
const resumedSQL = `SELECT ` + backwardColumns + `
	FROM sessions s
	JOIN LATERAL (SELECT MAX(l.seq) + 1 - $2 AS from_seq FROM messages l WHERE l.sid = s.sid) f ON true
	JOIN messages m ON m.sid = s.sid AND NOT m.is_sidechain AND m.seq >= f.from_seq
		AND m.seq >= coalesce((SELECT MAX(u.seq) FROM messages u
			WHERE u.sid = s.sid AND NOT u.is_sidechain AND u.type = $3 AND u.seq >= f.from_seq), f.from_seq)
	LEFT JOIN blocks b ON m.body IS NULL AND b.sid = m.sid AND b.seq = m.seq
	WHERE s.id = $1 AND NOT s.branched
	ORDER BY m.seq DESC, b.idx`
