package postgres

import (
	"crypto/sha256"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// putFileSnapshot stores a file snapshot, each file's content as a blob stored once by
// hash. A snapshot id the session holds already leaves everything as it is.
func (b *batchWriter) putFileSnapshot(sid int64, snap session.FileSnapshot) error {
	fsid := int64(-1)
	err := b.query(`INSERT INTO file_snapshots(sid, id, message_uuid, root, is_update, created_at, extra)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (sid, id) DO NOTHING RETURNING fsid`,
		[]any{sid, snap.ID, snap.MessageUUID, snap.Root, snap.IsUpdate, snap.CreatedAt.UnixMilli(), msgbody.JSONObject(snap.Source)},
		func(row []any) error {
			fsid = row[0].(int64)
			return nil
		})
	if err != nil || fsid < 0 {
		return err
	}
	for _, f := range snap.Files {
		var blobID, size any
		if f.Content != nil {
			if blobID, err = b.putBlob(f.Content); err != nil {
				return err
			}
		}
		if f.Size != nil {
			size = *f.Size
		}
		if _, err := b.exec(`INSERT INTO snapshot_files(fsid, path, state, hash, size, mode, blob_id, extra)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
			fsid, f.Path, f.State, f.Hash, size, int64(f.Mode), blobID, msgbody.JSONObject(f.Source)); err != nil {
			return err
		}
	}
	return nil
}

// putBlob stores data once by its SHA-256 and returns its id. Two hosts storing the same
// content at once both end with the one row.
func (b *batchWriter) putBlob(data []byte) (int64, error) {
	hash := sha256.Sum256(data)
	id := int64(-1)
	err := b.query(`WITH added AS (INSERT INTO blobs(hash, size, data) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING RETURNING id)
		SELECT id FROM added UNION ALL SELECT id FROM blobs WHERE hash = $1`, []any{hash[:], len(data), data},
		func(row []any) error {
			if id < 0 {
				id = row[0].(int64)
			}
			return nil
		})
	return id, err
}

// FileSnapshots returns the file snapshots of a session in the order they were put, each
// with its files in path order, without their content.
func (s *Store) FileSnapshots(sessionID string) ([]session.FileSnapshot, error) {
	var list []session.FileSnapshot
	err := s.readSession(sessionID, "reading the file snapshots", func(c conn, sid int64) error {
		current := int64(-1)
		return c.query(`SELECT f.fsid, f.id, f.message_uuid, f.root, f.is_update, f.created_at, f.extra,
				sf.path, sf.state, sf.hash, sf.size, sf.mode, sf.blob_id IS NOT NULL, sf.extra
			FROM file_snapshots f LEFT JOIN snapshot_files sf ON sf.fsid = f.fsid
			WHERE f.sid = $1 ORDER BY f.fsid, sf.path COLLATE "C"`, []any{sid}, func(row []any) error {
			if fsid := row[0].(int64); fsid != current {
				current = fsid
				list = append(list, session.FileSnapshot{
					ID: row[1].(string), MessageUUID: row[2].(string), Root: row[3].(string), IsUpdate: row[4].(bool),
					CreatedAt: time.UnixMilli(row[5].(int64)), Source: optionalObject(row[6]), Files: []session.SnapshotFile{},
				})
			}
			if row[7] == nil {
				return nil // a snapshot of no files
			}
			snap := &list[len(list)-1]
			f := session.SnapshotFile{Path: row[7].(string), State: row[8].(string), Hash: row[9].(string),
				Mode: uint32(row[11].(int64)), BackedUp: row[12].(bool), Source: optionalObject(row[13])}
			if size, ok := row[10].(int64); ok {
				f.Size = &size
			}
			snap.Files = append(snap.Files, f)
			return nil
		})
	})
	return list, err
}

// FileContent returns the content stored for file path of snapshot snapshotID of a
// session; nil when the snapshot holds none.
func (s *Store) FileContent(sessionID, snapshotID, path string) ([]byte, error) {
	var content []byte
	err := s.read(func(c conn) error {
		return c.query(`SELECT b.data FROM file_snapshots f
				JOIN snapshot_files sf ON sf.fsid = f.fsid JOIN blobs b ON b.id = sf.blob_id
			WHERE f.sid = (SELECT sid FROM sessions WHERE id = $1) AND f.id = $2 AND sf.path = $3`,
			[]any{sessionID, snapshotID, path}, func(row []any) error {
				content = append([]byte{}, row[0].([]byte)...)
				return nil
			})
	})
	return content, storageError("reading a file of snapshot "+snapshotID, err)
}

// optionalObject returns a stored JSON object, nil for an empty one.
func optionalObject(v any) []byte {
	b, _ := v.([]byte)
	if len(b) <= 2 {
		return nil
	}
	return append([]byte(nil), b...)
}
