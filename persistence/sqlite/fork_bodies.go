package sqlite

import (
	"bytes"
	"database/sql/driver"
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// sessionIDField is the sessionId field of the bodies of session id's messages.
func sessionIDField(id string) []byte {
	return jsonenc.AppendString([]byte(`,"sessionId":`), id)
}

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
	err := w.c.query(`SELECT f.new, r.body, r.layout FROM temp.fork_seqs f CROSS JOIN messages r ON r.sid = ?1 AND r.seq = f.old
		JOIN messages n ON n.sid = ?2 AND n.seq = f.new
		WHERE r.body IS NOT NULL AND n.body IS NULL ORDER BY f.new`, []any{from, to}, func(row []driver.Value) error {
		bodies = append(bodies, copied{row[0].(int64), asBytes(row[1]), asBytes(row[2])})
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
		body, lay, err := renamedBody(body, b.lay, oldField, newField)
		if err != nil {
			return fmt.Errorf("message %d of the fork: %w", b.seq, err)
		}
		if _, err := w.c.exec(`UPDATE messages SET body = ?, layout = ? WHERE sid = ? AND seq = ?`, w.bodies.storedLike(body, b.body), lay, to, b.seq); err != nil {
			return err
		}
	}
	return nil
}

// renamedBody returns body with its sessionId field oldField replaced by newField, and its
// layout shifted to match. The field is the first one of its name: no JSON string can hold
// its unescaped quotes, so the first match is the envelope's own field.
func renamedBody(body, lay, oldField, newField []byte) ([]byte, []byte, error) {
	l, err := decodeLayout(lay, len(body), nil)
	if err != nil {
		return nil, nil, err
	}
	at := bytes.Index(body[:l.messageAt], oldField)
	if at < 0 {
		return nil, nil, errBadLayout
	}
	renamed := make([]byte, 0, len(body)+len(newField)-len(oldField))
	renamed = append(append(append(renamed, body[:at]...), newField...), body[at+len(oldField):]...)
	shift := len(newField) - len(oldField)
	l.messageAt += shift
	for i := range l.blocks {
		l.blocks[i].at += shift
	}
	return renamed, l.encode(), nil
}

// storedLike returns body, a fork's copy of the stored body orig, in orig's stored form,
// whoever wrote orig: packed with the import's dictionary when orig was, so that a fork of
// an imported session keeps its size; packed with s2 when orig was; plain when orig was.
func (bb *bodyBuilder) storedLike(body, orig []byte) []byte {
	switch {
	case bodycodec.IsDictPacked(orig):
		return bb.storedImported(body)
	case bodycodec.IsPacked(orig):
		return bb.stored(body, 0)
	default:
		return body
	}
}
