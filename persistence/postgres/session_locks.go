package postgres

import (
	"reflect"
	"slices"

	"github.com/sessionkeep/sessionkeep/session"
)

// A batch locks the rows of the sessions it writes to before anything else, one statement
// each in the order of their keys (lockSessionSQL). Every later row it changes (the
// sessions' listings, their messages, blocks, tool uses, context states) belongs to one of
// those sessions, so two writers contend only for the sessions' rows, which they take in
// the same order: they wait for each other, never in a cycle. Before, each took a session's
// row when its Op's statement ran, in the order of the batch's Ops (an access recorded, a
// title set, the listing at the end in the order of a map), and hosts recording their
// accesses to each other's sessions deadlocked (test 126 on PostgreSQL, 1 of 2 runs).
// Sessions the batch creates are not locked: no other writer sees them before the commit.

// lockSessionSQL locks the row of session $1 with the lock the writer's UPDATEs of it take,
// and reads what the branch mark needs (branch_mark.go): whether the session is branched
// and, when it is not, its last main-chain message (uuid, seq), by the messages' primary
// key. One statement a session, by the primary key: its generic plan is the custom one,
// planned once per connection. One statement for all (`sid = ANY($1) ORDER BY sid`, or a
// lateral join over the sorted keys) was planned each time, or as a bitmap scan that visits
// every dead version of a row the writer updates at each commit (52 buffers a call in the 8
// writers, against 4 for this statement).
const lockSessionSQL = `SELECT s.branched, m.uuid, m.seq FROM sessions s
	LEFT JOIN LATERAL (SELECT p.uuid, p.seq FROM messages p WHERE p.sid = s.sid AND NOT p.is_sidechain AND NOT s.branched
		ORDER BY p.seq DESC LIMIT 1) m ON true
	WHERE s.sid = $1 FOR NO KEY UPDATE OF s`

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
	slices.Sort(sids)
	for _, sid := range sids {
		if err := b.queueRows(func(row []any) error {
			last, _ := row[1].(string)
			lastSeq, _ := row[2].(int64)
			b.noteLocked(sid, row[0].(bool), row[1] != nil, last, lastSeq)
			return nil
		}, lockSessionSQL, sid); err != nil {
			return err
		}
	}
	return nil
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
