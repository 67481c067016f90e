package schema

import (
	"database/sql/driver"
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// bodiesOnlyMigration is migration 10: a completed message's body becomes its one record.
// Before it, a message cost a messages row, a row per block, a blob row and a hash lookup
// per large block, and a search-queue row per block; W1 of the speed benchmark paid per
// row, not per byte. Now block rows only journal what is still streaming and are dropped
// when the message ends (persistence/sqlite: writer_once.go, body_write.go), every block is
// inside the body, and search indexes a message's body as one document (body_search, rowid
// = mid), queued in body_pending as blocks are queued in search_pending (by a trigger on
// insert until migration 14, by the writer since: persistence/sqlite/insert_effects.go).
// The block index (message_search) stays for the blocks that have no body: still streaming,
// cut off by a crash, or records that are not messages.
//
// The statements make the new tables; moveToBodies then moves the store's data. Both run
// in the one transaction of migrate, so a crash during the migration leaves the store as
// it was, and the next open migrates it again.
//
// A body SQLite's JSON functions refuse (nested deeper than their 1,000 levels: a caller may
// store one, and Node 26 encodes 5,000) is left out of search, as blockText leaves out such
// a block, rather than failing the index and every search after it.
var bodiesOnlyMigration = []string{
	`CREATE TABLE body_pending (mid INTEGER PRIMARY KEY)`,
	`CREATE VIEW body_search_text(mid, text) AS
		SELECT mid, text FROM (SELECT m.mid AS mid,
			(SELECT nullif(group_concat(t, ' '), '') FROM
				(SELECT ` + blockTextOf("value") + ` AS t FROM json_each(m.body, '$.message.content'))) AS text
			FROM messages m WHERE m.body IS NOT NULL AND json_valid(m.body))
		WHERE text IS NOT NULL`,
	`CREATE VIRTUAL TABLE body_search USING fts5(text, content='body_search_text', content_rowid='mid',
		tokenize='unicode61 remove_diacritics 2')`,
	`CREATE TRIGGER messages_body_queue_insert AFTER INSERT ON messages WHEN new.body IS NOT NULL BEGIN
		INSERT OR IGNORE INTO body_pending(mid) VALUES (new.mid);
	END`,
	`CREATE TRIGGER messages_body_queue_update AFTER UPDATE OF body ON messages WHEN old.body IS NULL AND new.body IS NOT NULL BEGIN
		INSERT OR IGNORE INTO body_pending(mid) VALUES (new.mid);
	END`,
	// Before the delete, while the view still gives the text the index holds.
	`CREATE TRIGGER messages_body_search_delete BEFORE DELETE ON messages WHEN old.body IS NOT NULL BEGIN
		INSERT INTO body_search(body_search, rowid, text)
			SELECT 'delete', mid, text FROM body_search_text
			WHERE mid = old.mid AND NOT EXISTS (SELECT 1 FROM body_pending WHERE mid = old.mid);
		DELETE FROM body_pending WHERE mid = old.mid;
	END`,
}

// moveToBodies moves a store of migration 9 to bodies only: it fills the blob holes of
// bodies, deletes the block rows of every message that has a body (the block index's
// triggers take them out of message_search), deletes the blobs nothing refers to any
// more, and queues every body for the search index, which the writer builds when idle or
// when a search waits for it.
func moveToBodies(c *sqlconn.Conn) error {
	if err := fillHolesAndDropBlocks(c); err != nil {
		return err
	}
	_, err := c.Exec(`INSERT OR IGNORE INTO body_pending(mid) SELECT mid FROM messages WHERE body IS NOT NULL`)
	return err
}

// fillHolesAndDropBlocks fills the blob holes of bodies, deletes the block rows of every
// message that has a body and the blobs nothing refers to any more.
func fillHolesAndDropBlocks(c *sqlconn.Conn) error {
	if err := fillHoles(c); err != nil {
		return err
	}
	for _, stmt := range []string{
		`DELETE FROM blocks WHERE EXISTS (SELECT 1 FROM messages m WHERE m.sid = blocks.sid AND m.seq = blocks.seq AND m.body IS NOT NULL)`,
		`DELETE FROM blobs WHERE id NOT IN (SELECT blob_id FROM blocks WHERE blob_id IS NOT NULL)
			AND id NOT IN (SELECT blob_id FROM snapshot_files WHERE blob_id IS NOT NULL)`,
	} {
		if _, err := c.Exec(stmt); err != nil {
			return err
		}
	}
	return nil
}

// fillHoles rewrites each body that has holes (its large blocks in the blob table) with
// the blocks' JSON in place, ASCII like the rest of the body.
func fillHoles(c *sqlconn.Conn) error {
	type holed struct {
		mid       int64
		body, lay []byte
	}
	var bodies []holed
	err := c.Query(`SELECT m.mid, m.body, m.layout FROM messages m WHERE m.body IS NOT NULL AND EXISTS
			(SELECT 1 FROM blocks b WHERE b.sid = m.sid AND b.seq = m.seq AND b.blob_id IS NOT NULL)`, nil,
		func(row []driver.Value) error {
			bodies = append(bodies, holed{row[0].(int64), rowvalue.Bytes(row[1]), rowvalue.Bytes(row[2])})
			return nil
		})
	if err != nil {
		return err
	}
	for _, h := range bodies {
		body, lay, err := filledBody(c, h.body, h.lay)
		if err != nil {
			return fmt.Errorf("message row %d: %w", h.mid, err)
		}
		if _, err := c.Exec(`UPDATE messages SET body = ?, layout = ? WHERE mid = ?`, body, lay, h.mid); err != nil {
			return err
		}
	}
	return nil
}

// filledBody returns body with each hole its layout names filled with its blob's data,
// and the layout of the result.
func filledBody(c *sqlconn.Conn, stored, lay []byte) ([]byte, []byte, error) {
	body, err := bodycodec.Unpack(nil, stored)
	if err != nil {
		return nil, nil, err
	}
	l, err := msgbody.DecodeLayout(lay, len(body), nil)
	if err != nil {
		return nil, nil, err
	}
	filled := make([]byte, 0, len(body))
	from := 0
	shift := 0
	for i, span := range l.Blocks {
		l.Blocks[i].At += shift
		if span.Blob == 0 {
			continue
		}
		var data []byte
		err := c.Query(`SELECT data FROM blobs WHERE id = ?`, []any{span.Blob}, func(row []driver.Value) error {
			data = rowvalue.Bytes(row[0])
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if data == nil {
			return nil, nil, fmt.Errorf("blob %d is missing", span.Blob)
		}
		filled = append(filled, body[from:span.At]...)
		n := len(filled)
		filled = jsonenc.AppendASCII(filled, data)
		l.Blocks[i].N, l.Blocks[i].Blob = len(filled)-n, 0
		shift += len(filled) - n
		from = span.At
	}
	return append(filled, body[from:]...), l.Encode(), nil
}
