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
// condition where, with args as its parameters. The messages it marks then get their bodies
// (settleInterrupted).
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
	if err == nil && len(recovered) > 0 {
		ids := make([]string, len(recovered))
		for i, r := range recovered {
			ids[i] = r.ID
		}
		err = settleInterrupted(c, ids)
	}
	return recovered, storageError("recovering interrupted sessions", err)
}

// dyingWriterWait bounds how long opening a session waits for a writer that may have just
// died (see recoverSession).
const dyingWriterWait = 500 * time.Millisecond

// dyingWriterPoll is how often recoverSession looks: a live writer streaming begins a
// transaction every few milliseconds, and each look is one cheap query.
const dyingWriterPoll = 2 * time.Millisecond

// recoverSession marks session sid interrupted if its writer is gone, as opening the store
// does, so that a session whose writer died after this store opened, or only a moment
// before, is not read as streaming for ever. A SIGKILLed writer's server process may still
// be running what its client sent last (a commit that begins a message), and lets go of the
// owner lock only once it has run and seen the connection close: on a loaded machine up to
// hundreds of milliseconds later. So while the session is open or streaming and its owner
// lock is held, it looks again, for at most dyingWriterWait, until the server process
// holding the lock has been idle for 250 ms (a writer waiting for its caller) or begins two
// transactions (a writer streaming; a dead writer's can at most run the one its client had
// sent BEGIN for, the next being sent only after a COMMIT's reply). A writer whose server
// process this role may not see costs the whole wait. own is this store's owner key: its
// own sessions are never waited for.
func recoverSession(c conn, sid int64, own string) error {
	// Most sessions opened are closed, or this store's own: one cheap look, and done.
	others := false
	err := c.query(`SELECT true FROM sessions s WHERE s.sid = $1 AND s.owner <> $2
		AND (s.is_open OR EXISTS (SELECT 1 FROM messages m WHERE m.sid = s.sid AND m.status = 'streaming'))`,
		[]any{sid, own}, func([]any) error {
			others = true
			return nil
		})
	if err != nil || !others {
		return err
	}
	deadline := time.Now().Add(dyingWriterWait)
	var first time.Time
	begun := map[time.Time]bool{} // the transactions seen begun since the first look
	for looked := false; ; looked = true {
		var began time.Time
		held, settled := false, false
		err := c.query(`SELECT a.xact_start, coalesce(a.state = 'idle' AND a.state_change < clock_timestamp() - interval '250 milliseconds', false)
			FROM sessions s, pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
			WHERE s.sid = $1 AND s.owner <> $2 AND s.owner ~ '^-?[0-9]+$'
				AND (s.is_open OR EXISTS (SELECT 1 FROM messages m WHERE m.sid = s.sid AND m.status = 'streaming'))
				AND l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
				AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
				AND ((l.classid::bigint << 32) | l.objid::bigint) = s.owner::bigint`,
			[]any{sid, own}, func(row []any) error {
				held = true
				began, _ = row[0].(time.Time) // NULL between transactions, or not ours to see
				settled = row[1].(bool)
				return nil
			})
		if !looked {
			first = began
		} else if !began.IsZero() && !began.Equal(first) {
			begun[began] = true
		}
		if err != nil {
			return err
		}
		if !held || settled || len(begun) >= 2 || time.Now().After(deadline) {
			// Marked after the last look: the lock may have been let go just before it.
			_, err := markInterruptedWhere(c, "s.sid = $1", sid)
			return err
		}
		time.Sleep(dyingWriterPoll)
	}
}
