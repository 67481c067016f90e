package schema

import (
	"database/sql/driver"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// settleLateBodies finishes, at each open, what migration 10 did for the messages that a
// process of sessionkeep before it ended after another process had migrated the store: a
// message it was streaming across the upgrade, ended by its old code, gets a body with
// holes (its large blocks left in the blob table, block rows naming them), which today's
// readers cannot decode, and block rows and blobs the store no longer needs. Each such body
// is filled (fillHoles), the block rows of every message that has a body deleted with the
// blobs nothing refers to any more, and the filled messages queued for search, in one
// transaction. A store with no block row naming a blob (every store written since
// migration 10) costs one lookup in the blocks_by_blob index. A failure (a blob missing, a
// lock held past the busy timeout) leaves the store as it was, for verify to report and a
// later open to try again: it does not keep the store from opening.
func settleLateBodies(c *sqlconn.Conn) error {
	holed := false
	err := c.Query(`SELECT 1 FROM blocks b JOIN messages m ON m.sid = b.sid AND m.seq = b.seq
		WHERE b.blob_id IS NOT NULL AND m.body IS NOT NULL LIMIT 1`, nil, func([]driver.Value) error {
		holed = true
		return nil
	})
	if err != nil || !holed {
		return err
	}
	if _, err := c.Exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	if err := settleHoledBodies(c); err != nil {
		c.Exec("ROLLBACK")
		return err
	}
	_, err = c.Exec("COMMIT")
	return err
}

// settleHoledBodies is settleLateBodies's transaction.
func settleHoledBodies(c *sqlconn.Conn) error {
	if _, err := c.Exec(`INSERT OR IGNORE INTO body_pending(mid) SELECT m.mid FROM messages m WHERE m.body IS NOT NULL
		AND EXISTS (SELECT 1 FROM blocks b WHERE b.sid = m.sid AND b.seq = m.seq AND b.blob_id IS NOT NULL)`); err != nil {
		return err
	}
	return fillHolesAndDropBlocks(c)
}
