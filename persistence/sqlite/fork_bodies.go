package sqlite

import (
	"database/sql/driver"
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
)

// copyForkBodies gives the messages a fork copied without a body (forkCopies swaps the
// session id in SQL only when the two ids are the same length) the bodies of their
// origins: each is the origin's body with the fork's id in its sessionId field, the layout
// shifted by the difference in length. It runs after forkCopies.
func (w *writer) copyForkBodies(from, to int64, oldField, newField []byte) error {
	type copied struct {
		seq       int64
		body, lay []byte
	}
	var bodies []copied
	err := w.c.Query(`SELECT f.new, r.body, r.layout FROM temp.fork_seqs f CROSS JOIN messages r ON r.sid = ?1 AND r.seq = f.old
		JOIN messages n ON n.sid = ?2 AND n.seq = f.new
		WHERE r.body IS NOT NULL AND n.body IS NULL ORDER BY f.new`, []any{from, to}, func(row []driver.Value) error {
		bodies = append(bodies, copied{row[0].(int64), rowvalue.Bytes(row[1]), rowvalue.Bytes(row[2])})
		return nil
	})
	if err != nil {
		return err
	}
	for _, b := range bodies {
		body, err := bodycodec.Unpack(nil, b.body)
		if err != nil {
			return fmt.Errorf("message %d of the fork: %w", b.seq, err)
		}
		body, lay, err := msgbody.Renamed(body, b.lay, oldField, newField)
		if err != nil {
			return fmt.Errorf("message %d of the fork: %w", b.seq, err)
		}
		if _, err := w.c.Exec(`UPDATE messages SET body = ?, layout = ? WHERE sid = ? AND seq = ?`, w.bodies.StoredLike(body, b.body), lay, to, b.seq); err != nil {
			return err
		}
	}
	return nil
}
