package sqlite

import (
	"crypto/sha256"
	"database/sql/driver"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// BlobThreshold is the size above which a block's JSON is stored in the blob table, by
// content hash, so that identical payloads (a file read twice) are stored once and the
// blocks table stays compact.
const BlobThreshold = 10 * 1024

// putBlob stores data once by its SHA-256 and returns its row id.
func putBlob(c *sqlconn.Conn, data []byte) (int64, error) {
	hash := sha256.Sum256(data)
	id := int64(-1)
	err := c.Query(`SELECT id FROM blobs WHERE hash = ?`, []any{hash[:]}, func(row []driver.Value) error {
		id = row[0].(int64)
		return nil
	})
	if err != nil || id >= 0 {
		return id, err
	}
	res, err := c.Exec(`INSERT INTO blobs(hash, size, data) VALUES (?, ?, ?)`, hash[:], len(data), data)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}
