package postgres

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
	recovered := []RecoveredSession{}
	err := c.query(`WITH orphans AS (
			SELECT s.sid FROM sessions s
			WHERE (s.is_open OR EXISTS (SELECT 1 FROM messages m WHERE m.sid = s.sid AND m.status = 'streaming'))
				AND `+ownerGone+`
			FOR UPDATE SKIP LOCKED),
		messages_marked AS (
			UPDATE messages m SET status = 'interrupted' FROM orphans o WHERE m.sid = o.sid AND m.status = 'streaming'
			RETURNING m.sid)
		UPDATE sessions s SET status = 'interrupted', is_open = false FROM orphans o WHERE s.sid = o.sid
		RETURNING s.id, s.project_path, s.title, (SELECT count(*) FROM messages_marked mm WHERE mm.sid = s.sid)`,
		nil, func(row []any) error {
			recovered = append(recovered, RecoveredSession{ID: row[0].(string), ProjectPath: row[1].(string),
				Title: row[2].(string), InterruptedMessages: row[3].(int64)})
			return nil
		})
	return recovered, storageError("recovering interrupted sessions", err)
}
