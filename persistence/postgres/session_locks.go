package postgres

import (
	"reflect"

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

// lockSessionsSQL locks the rows of the sessions named by $1, in the order of their keys:
// the sort is below the locking in the plan, so the rows are locked as sorted. FOR NO KEY
// UPDATE is the lock the writer's UPDATEs of those rows take.
const lockSessionsSQL = `SELECT sid FROM sessions WHERE id = ANY($1::text[]) ORDER BY sid FOR NO KEY UPDATE`

// lockSessions queues the lock of the rows of every session an Op of batch writes to,
// ahead of the batch's other statements.
func (b *batchWriter) lockSessions(batch []session.Op) error {
	ids := sessionsWritten(batch)
	if len(ids) == 0 {
		return nil
	}
	return b.queue(nil, lockSessionsSQL, ids)
}

// sessionsWritten names, once each, the existing sessions whose rows the Ops of batch
// change.
func sessionsWritten(batch []session.Op) []string {
	var ids []string
	seen := map[string]bool{}
	for _, op := range batch {
		id := sessionWritten(op)
		if id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
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
