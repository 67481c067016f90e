package postgres

import "time"

// RecoveredSession is a session found open by a writer that is gone (its process crashed or
// its host died, closing its connection), which opening the store marked interrupted.
type RecoveredSession struct {
	ID          string `json:"id"`
	ProjectPath string `json:"projectPath"`
	Title       string `json:"title"`
	// InterruptedMessages is how many messages were still streaming; they are kept and
	// marked interrupted, partial blocks included.
	InterruptedMessages int64 `json:"interruptedMessages"`
}

// ownerGone is the SQL condition that the writer named by the owner column of sessions s
// holds its owner lock no more: the advisory lock of a bigint key is the pg_locks row with
// the key's halves in classid and objid and objsubid 1. An owner that is not a key (none
// yet) is gone.
const ownerGone = `NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
	AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
	AND s.owner ~ '^-?[0-9]+$'
	AND ((l.classid::bigint << 32) | l.objid::bigint) = s.owner::bigint)`

// markInterrupted finds sessions held open, or with a message streaming, by a writer that
// is gone, on any host, and marks them and their streaming messages interrupted, in one
// statement so that hosts opening the store at once each mark a session at most once.
func markInterrupted(c conn) ([]RecoveredSession, error) {
	return markInterruptedWhere(c, "true")
}

// markInterruptedWhere is markInterrupted for the sessions s that also meet the SQL
// condition where, with args as its parameters.
func markInterruptedWhere(c conn, where string, args ...any) ([]RecoveredSession, error) {
	recovered := []RecoveredSession{}
	err := c.query(`WITH orphans AS (
			SELECT s.sid FROM sessions s
			WHERE (s.is_open OR EXISTS (SELECT 1 FROM messages m WHERE m.sid = s.sid AND m.status = 'streaming'))
				AND `+ownerGone+` AND `+where+`
			FOR UPDATE SKIP LOCKED),
		messages_marked AS (
			UPDATE messages m SET status = 'interrupted' FROM orphans o WHERE m.sid = o.sid AND m.status = 'streaming'
			RETURNING m.sid)
		UPDATE sessions s SET status = 'interrupted', is_open = false FROM orphans o WHERE s.sid = o.sid
		RETURNING s.id, s.project_path, s.title, (SELECT count(*) FROM messages_marked mm WHERE mm.sid = s.sid)`,
		args, func(row []any) error {
			recovered = append(recovered, RecoveredSession{ID: row[0].(string), ProjectPath: row[1].(string),
				Title: row[2].(string), InterruptedMessages: row[3].(int64)})
			return nil
		})
	return recovered, storageError("recovering interrupted sessions", err)
}

// dyingWriterWait bounds how long opening a session waits for the server to let go of the
// owner lock of a writer that has just died (see recoverSession).
const dyingWriterWait = 300 * time.Millisecond

// recoverSession marks session sid interrupted if its writer is gone, as opening the store
// does, so that a session whose writer died after this store opened, or only a moment
// before, is not read as streaming for ever. A SIGKILLed writer's server process lets go of
// its owner lock only once it has seen the connection close, which on a loaded machine takes
// tens of milliseconds. So while a message is streaming and the owner lock is still held,
// it looks again, for at most dyingWriterWait, unless the server process holding the lock
// is seen working on (its state changed twice: a writer streaming commits every few
// milliseconds, a dying one at most finishes the statement it was running). own is this
// store's owner key: its own sessions are never waited for.
func recoverSession(c conn, sid int64, own string) error {
	deadline := time.Now().Add(dyingWriterWait)
	var seen time.Time
	changes := 0
	for {
		if _, err := markInterruptedWhere(c, "s.sid = $1", sid); err != nil {
			return err
		}
		var changed time.Time
		held := false
		err := c.query(`SELECT a.state_change FROM sessions s, pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
			WHERE s.sid = $1 AND s.owner <> $2 AND s.owner ~ '^-?[0-9]+$'
				AND EXISTS (SELECT 1 FROM messages m WHERE m.sid = s.sid AND m.status = 'streaming')
				AND l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
				AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
				AND ((l.classid::bigint << 32) | l.objid::bigint) = s.owner::bigint`,
			[]any{sid, own}, func(row []any) error {
				held = true
				changed, _ = row[0].(time.Time) // NULL when the process is not ours to see, or exiting
				return nil
			})
		if changed.After(seen) && !seen.IsZero() {
			changes++
		}
		if err != nil || !held || changes >= 2 || time.Now().After(deadline) {
			return err
		}
		if !changed.IsZero() {
			seen = changed
		}
		time.Sleep(10 * time.Millisecond)
	}
}
