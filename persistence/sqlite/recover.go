package sqlite

import (
	"database/sql/driver"

	"github.com/sessionkeep/sessionkeep/persistence/procowner"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// RecoveredSession is a session found open by a process that is gone (it crashed or was
// killed), which opening the store marked interrupted.
type RecoveredSession struct {
	ID          string `json:"id"`
	ProjectPath string `json:"projectPath"`
	Title       string `json:"title"`
	// InterruptedMessages is how many messages were still streaming; they are kept and
	// marked interrupted, partial blocks included.
	InterruptedMessages int64 `json:"interruptedMessages"`
}

// markInterrupted finds sessions that a process on this host held open, or was writing a
// message of, when it died, and marks them, and their streaming messages, interrupted.
// What had streamed stays, partial blocks included; nothing is completed or dropped. It
// returns the sessions it marked.
func markInterrupted(c *sqlconn.Conn) ([]RecoveredSession, error) {
	type orphan struct {
		sid   int64
		owner string
		info  RecoveredSession
	}
	var found []orphan
	err := c.Query(`SELECT s.sid, s.owner, s.id, s.project_path, s.title,
			(SELECT COUNT(*) FROM messages m WHERE m.sid = s.sid AND m.status = 'streaming')
		FROM sessions s
		WHERE s.sid IN (SELECT sid FROM sessions WHERE is_open = 1 UNION SELECT sid FROM messages WHERE status = 'streaming')`, nil, func(row []driver.Value) error {
		d := rowDecoder{row: row}
		found = append(found, orphan{row[0].(int64), d.Text(1, "owner"), RecoveredSession{
			ID: d.Text(2, "id"), ProjectPath: d.Text(3, "project_path"), Title: d.Text(4, "title"), InterruptedMessages: d.Integer(5, "count"),
		}})
		return nil
	})
	if err != nil {
		return nil, sqlconn.Wrap("looking for interrupted sessions", err)
	}
	var recovered []RecoveredSession
	for _, o := range found {
		if procowner.Alive(o.owner) {
			continue
		}
		if _, err := c.Exec(`UPDATE messages SET status = 'interrupted' WHERE sid = ? AND status = 'streaming'`, o.sid); err != nil {
			return nil, sqlconn.Wrap("marking interrupted messages", err)
		}
		if _, err := c.Exec(`UPDATE sessions SET status = 'interrupted', is_open = 0 WHERE sid = ?`, o.sid); err != nil {
			return nil, sqlconn.Wrap("marking an interrupted session", err)
		}
		recovered = append(recovered, o.info)
	}
	return recovered, nil
}
