package sqlite

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/rawdb"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// ScanEncoded calls fn for each message of a session from seq fromSeq on, in order. A
// message with a body comes as it (Encoded and MessageAt, beside Seq, Role, IsSidechain
// and Continues); one without, still streaming, interrupted by a crash, copied by a fork or
// a record that is not a message, comes whole as from ScanMessagesFrom; so does one
// interrupted before it had a block, which readers leave out. A message's Encoded is valid
// only during fn: it is SQLite's memory, or a buffer the next row or scan reuses.
func (s *Store) ScanEncoded(sessionID string, fromSeq int64, fn func(*session.StoredMessage) error) error {
	_, err := s.scanEncoded(sessionID, fromSeq, false, fn)
	return err
}

// ScanEncodedUnbranched is ScanEncoded for a session that never branched: the session's
// key and its branched mark are one lookup, and a session that branched is reported
// without fn being called.
func (s *Store) ScanEncodedUnbranched(sessionID string, fromSeq int64, fn func(*session.StoredMessage) error) (branched bool, err error) {
	return s.scanEncoded(sessionID, fromSeq, true, fn)
}

// scanEncoded is ScanEncoded, which with unlessBranched reads nothing of a session that
// branched and reports it.
func (s *Store) scanEncoded(sessionID string, fromSeq int64, unlessBranched bool, fn func(*session.StoredMessage) error) (branched bool, err error) {
	err = s.readDirect(func(c *rawdb.Conn) error {
		sid, marked, err := lookupBranched(directValues{c}, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		if branched = unlessBranched && marked; branched {
			return nil
		}
		kept := unpackBuffers.Get().(*[]byte)
		r := bodyReader{c: directValues{c}, sid: sid, sessionID: sessionID, unpacked: *kept}
		defer func() {
			if cap(r.unpacked) <= maxKeptUnpackBuffer {
				*kept = r.unpacked[:0]
				unpackBuffers.Put(kept)
			}
		}()
		for next := fromSeq; ; {
			last, err := r.scanFor(c, next, snapshotHold, fn)
			if !errors.Is(err, errSnapshotHeld) {
				return sqlconn.Wrap("reading messages of session "+sessionID, err)
			}
			next = last + 1
		}
	})
	return branched, err
}

// scanFor calls fn for the session's messages from seq next on in one statement, until
// there are no more or it has read for hold: then it gives errSnapshotHeld and the last
// seq fn was called with.
func (r *bodyReader) scanFor(c *rawdb.Conn, next int64, hold time.Duration, fn func(*session.StoredMessage) error) (last int64, err error) {
	began := time.Now()
	err = queryDirect(c, `SELECT seq, body, layout, role, is_sidechain, continues, status FROM messages WHERE sid = ? AND seq >= ? ORDER BY seq`,
		[]any{r.sid, next}, func(row *rawdb.Stmt) error {
			m, err := r.message(row)
			if err != nil {
				return err
			}
			last = m.Seq
			if err := fn(m); err != nil {
				return err
			}
			if time.Since(began) > hold {
				return errSnapshotHeld
			}
			return nil
		})
	return last, err
}

// snapshotHold is how long ScanEncoded reads in one statement, so one read transaction. A
// scan whose reader is slow to take what it reads (an async restore waits for JavaScript
// to take each part, for seconds on a starved machine) then ends its statement and goes on
// from the next seq in a new one: a snapshot held that long keeps the checkpointer from
// starting the WAL over, which grows meanwhile by everything the writer commits (126 MB
// during one 66 s restore, bench/README.md "The WAL under W1 on repeat"). Messages
// appended meanwhile are read as a later read would read them.
var snapshotHold = 100 * time.Millisecond

// errSnapshotHeld ends a statement of ScanEncoded that has read for snapshotHold.
var errSnapshotHeld = errors.New("the scan has held its snapshot for snapshotHold")

// unpackBuffers hold the buffers packed bodies are unpacked into, for the next scan: a
// tail of 20 large messages allocated a new one each time (mallocgcLarge, 5 % of its Go
// time). A message's Encoded is valid only during fn, so the buffer is free when the scan
// returns.
var unpackBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxKeptUnpackBuffer is the largest unpack buffer kept: one that held a very large body is
// left to the collector.
const maxKeptUnpackBuffer = 1 << 20

// bodyReader turns the rows of ScanEncoded's query into StoredMessages, reusing its
// buffers between rows. A message's Encoded is SQLite's memory when its body is not
// packed: valid until fn returns, as the unpacked buffer reused for the next row is.
type bodyReader struct {
	c         rowQuerier // the connection of the scan, for messages with no body
	sid       int64
	sessionID string
	m         session.StoredMessage
	spans     []msgbody.Span
	parts     [][]byte
	unpacked  []byte // the buffer packed bodies are unpacked into
}

// message reads one row of ScanEncoded's query.
func (r *bodyReader) message(row *rawdb.Stmt) (*session.StoredMessage, error) {
	d := stmtDecoder{row: row}
	seq, body := d.Integer(0, "seq"), columnBytes(row, 1)
	if body == nil {
		return r.whole(seq)
	}
	role, side, cont := d.Text(3, "role"), d.Integer(4, "is_sidechain") != 0, d.Integer(5, "continues") != 0
	stored := body
	body, err := msgbody.Unpacked(r.unpacked, stored, seq)
	if err != nil {
		return nil, err
	}
	if bodycodec.IsPacked(stored) {
		r.unpacked = body // fn is done with each message before the next: reuse the buffer
	}
	l, err := msgbody.DecodeLayout(columnBytes(row, 2), len(body), r.spans)
	if err == nil && l.HasHole() {
		err = msgbody.ErrBadLayout // a hole of a body older than migration 10, which filled them all
	}
	if err != nil || len(d.bad) > 0 {
		return nil, fmt.Errorf("%w: message %d of session %s has an unreadable body or columns", session.ErrSessionCorrupt, seq, r.sessionID)
	}
	r.spans = l.Blocks
	if len(l.Blocks) == 0 && d.Text(6, "status") == session.MessageInterrupted {
		return r.whole(seq) // so that readers see it is empty and interrupted
	}
	m := &r.m
	*m = session.StoredMessage{Seq: seq, Role: role, IsSidechain: side, Continues: cont, Encoded: append(r.parts[:0], body), MessageAt: l.MessageAt}
	r.parts = m.Encoded
	return m, nil
}

// whole reads message seq from its row and block rows: a message with no body.
func (r *bodyReader) whole(seq int64) (*session.StoredMessage, error) {
	var found *session.StoredMessage
	err := scanFrom(r.c, r.sid, r.sessionID, seq, seq, func(m *session.StoredMessage) error {
		r.m = *m
		found = &r.m
		return nil
	})
	if err == nil && found == nil {
		err = fmt.Errorf("%w: message %d of session %s vanished while it was read", session.ErrSessionCorrupt, seq, r.sessionID)
	}
	return found, err
}
