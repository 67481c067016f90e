package sqlite

import (
	"database/sql/driver"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// putFileSnapshot stores a file snapshot, each file's content as a blob stored once by
// hash. A snapshot id the session holds already leaves everything as it is.
func (w *writer) putFileSnapshot(sid int64, snap session.FileSnapshot) error {
	res, err := w.c.Exec(`INSERT INTO file_snapshots(sid, id, message_uuid, root, is_update, created_at, extra)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(sid, id) DO NOTHING`,
		sid, snap.ID, snap.MessageUUID, snap.Root, snap.IsUpdate, snap.CreatedAt.UnixMilli(), msgbody.JSONObject(snap.Source))
	if err != nil {
		return err
	}
	if added, err := res.RowsAffected(); err != nil || added == 0 {
		return err
	}
	fsid, err := res.LastInsertId()
	if err != nil {
		return err
	}
	for _, f := range snap.Files {
		var blobID, size any
		if f.Content != nil {
			if blobID, err = putBlob(w.c, f.Content); err != nil {
				return err
			}
		}
		if f.Size != nil {
			size = *f.Size
		}
		if _, err := w.c.Exec(`INSERT INTO snapshot_files(fsid, path, state, hash, size, mode, blob_id, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			fsid, f.Path, f.State, f.Hash, size, int64(f.Mode), blobID, msgbody.JSONObject(f.Source)); err != nil {
			return err
		}
	}
	return nil
}

// FileSnapshots returns the file snapshots of a session in the order they were put, each
// with its files in path order, without their content.
func (s *Store) FileSnapshots(sessionID string) ([]session.FileSnapshot, error) {
	var list []session.FileSnapshot
	err := s.read(func(c *sqlconn.Conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		current := int64(-1)
		return c.Query(`SELECT f.fsid, f.id, f.message_uuid, f.root, f.is_update, f.created_at, f.extra,
				sf.path, sf.state, sf.hash, sf.size, sf.mode, sf.blob_id IS NOT NULL, sf.extra
			FROM file_snapshots f LEFT JOIN snapshot_files sf ON sf.fsid = f.fsid
			WHERE f.sid = ? ORDER BY f.fsid, sf.path`, []any{sid}, func(row []driver.Value) error {
			if fsid := row[0].(int64); fsid != current {
				current = fsid
				list = append(list, session.FileSnapshot{
					ID: row[1].(string), MessageUUID: row[2].(string), Root: row[3].(string), IsUpdate: row[4].(int64) != 0,
					CreatedAt: time.UnixMilli(row[5].(int64)), Source: optionalObject(row[6]), Files: []session.SnapshotFile{},
				})
			}
			if row[7] == nil {
				return nil // a snapshot of no files
			}
			snap := &list[len(list)-1]
			f := session.SnapshotFile{Path: row[7].(string), State: row[8].(string), Hash: row[9].(string),
				Mode: uint32(row[11].(int64)), BackedUp: row[12].(int64) != 0, Source: optionalObject(row[13])}
			if size, ok := row[10].(int64); ok {
				f.Size = &size
			}
			snap.Files = append(snap.Files, f)
			return nil
		})
	})
	return list, sqlconn.Wrap("reading the file snapshots of session "+sessionID, err)
}

// FileContent returns the content stored for file path of snapshot snapshotID of a
// session; nil when the snapshot holds none.
func (s *Store) FileContent(sessionID, snapshotID, path string) ([]byte, error) {
	var content []byte
	err := s.read(func(c *sqlconn.Conn) error {
		return c.Query(`SELECT b.data FROM file_snapshots f
				JOIN snapshot_files sf ON sf.fsid = f.fsid JOIN blobs b ON b.id = sf.blob_id
			WHERE f.sid = (SELECT sid FROM sessions WHERE id = ?) AND f.id = ? AND sf.path = ?`,
			[]any{sessionID, snapshotID, path}, func(row []driver.Value) error {
				content = append([]byte{}, rowvalue.Bytes(row[0])...)
				return nil
			})
	})
	return content, sqlconn.Wrap("reading a file of snapshot "+snapshotID, err)
}

// optionalObject returns a stored JSON object, nil for an empty one.
func optionalObject(v driver.Value) []byte {
	b := rowvalue.Bytes(v)
	if len(b) <= 2 {
		return nil
	}
	return append([]byte(nil), b...)
}
