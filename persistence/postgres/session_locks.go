package postgres

import (
	"reflect"
	"slices"

	"github.com/sessionkeep/sessionkeep/session"
)

// A batch locks the rows of the sessions it writes to before anything else, in one
// statement and in the order of their keys (lockSessionsSQL). Every later row it changes
// (the sessions' listings, their messages, blocks, tool uses, context states) belongs to
// one of those sessions, so two writers contend only for the sessions' rows, which they
// take in the same order: they wait for each other, never in a cycle. Before, each took a
// session's row when its Op's statement ran, in the order of the batch's Ops (an access
// recorded, a title set, the listing at the end in the order of a map), and hosts recording
// their accesses to each other's sessions deadlocked (test 126 on PostgreSQL, 1 of 2 runs).
// Sessions the batch creates are not locked: no other writer sees them before the commit.

// lockSessionsSQL locks the rows of the sessions whose keys $1 holds, in the array's order
// (sorted by the writer): each by an index scan of the primary key, one after the other in
// a nested loop. `sid = ANY($1) ORDER BY sid FOR NO KEY UPDATE` locks in the same order but
// is planned as a bitmap scan, which visits every dead version of a row the writer updates
// at each commit (52 buffers a call in the 8 writers against 4 for an UPDATE by the key).
// FOR NO KEY UPDATE is the lock the writer's UPDATEs of those rows take.
const lockSessionsSQL = `SELECT l.sid FROM unnest($1::bigint[]) AS k(sid)
	CROSS JOIN LATERAL (SELECT s.sid FROM sessions s WHERE s.sid = k.sid FOR NO KEY UPDATE) l`

// lockSessions queues the lock of the rows of every existing session an Op of batch
// writes to, ahead of the batch's other statements.
func (b *batchWriter) lockSessions(batch []session.Op) error {
	ids, created := sessionsWritten(batch)
	if err := b.lookUpSIDs(ids, created); err != nil {
		return err
	}
	var sids []int64
	for _, id := range ids {
		if sid, ok := b.w.sids[id]; ok {
			sids = append(sids, sid)
		}
	}
	if len(sids) == 0 {
		return nil
	}
	slices.Sort(sids)
	return b.queue(nil, lockSessionsSQL, sids)
}

// lookUpSIDs finds the keys of the sessions of ids this writer does not know yet, in one
// statement; a session not stored (deleted) stays unknown. The sessions the batch creates
// are not asked for: they are not stored yet.
func (b *batchWriter) lookUpSIDs(ids []string, created map[string]bool) error {
	var unknown []string
	for _, id := range ids {
		if _, ok := b.w.sids[id]; !ok && !created[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return b.query(`SELECT id, sid FROM sessions WHERE id = ANY($1::text[])`, []any{unknown}, func(row []any) error {
		b.w.sids[row[0].(string)] = row[1].(int64)
		return nil
	})
}

// sessionsWritten names, once each, the sessions whose rows the Ops of batch change, and
// the sessions the batch creates.
func sessionsWritten(batch []session.Op) (ids []string, created map[string]bool) {
	seen, created := map[string]bool{}, map[string]bool{}
	for _, op := range batch {
		switch op := op.(type) {
		case session.CreateSession:
			created[op.Info.ID] = true
		case session.ForkSession:
			created[op.Info.ID] = true
		}
		id := sessionWritten(op)
		if id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, created
}

// sessionWritten is the session whose rows op changes, or "" for an Op that creates its
// session (CreateSession, ForkSession, which only reads its origin) or names none
// (MoveProject, which changes every session under a path). Every other ManagementOp names
// its session in its SessionID field, a ManagementOp added later too.
func sessionWritten(op session.Op) string {
	switch op := op.(type) {
	case session.SessionOp: // and every ContextOp
		return op.SessionOf()
	case session.ManagementOp:
		v := reflect.Indirect(reflect.ValueOf(op))
		if v.Kind() != reflect.Struct {
			return ""
		}
		if id := v.FieldByName("SessionID"); id.Kind() == reflect.String {
			return id.String()
		}
	}
	return ""
}
