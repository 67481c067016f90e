package sqlite

import (
	"bytes"
	"crypto/sha256"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// Problem is one finding of Verify: a stable Code, what was found, and the session it is in
// (its id, empty for the file as a whole). Damage is true when something stored is wrong
// (a check failed); false for waste that loses nothing (an orphan blob, a large WAL).
type Problem struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	SessionID string `json:"sessionId,omitempty"`
	Damage    bool   `json:"damage"`
}

// The codes of Verify's problems.
const (
	ProblemIntegrity    = "INTEGRITY"       // SQLite's integrity_check
	ProblemSearchIndex  = "SEARCH_INDEX"    // a full-text index differs from its content
	ProblemBody         = "BODY_UNREADABLE" // a message's body does not decode
	ProblemBlobMissing  = "BLOB_MISSING"    // a reference to a blob that is not there
	ProblemBlobDamaged  = "BLOB_DAMAGED"    // a blob whose bytes are not its hash's
	ProblemBlobOrphan   = "BLOB_ORPHAN"     // a blob nothing refers to
	ProblemCount        = "COUNT_MISMATCH"  // a session's counts differ from its rows
	ProblemTree         = "TREE_BROKEN"     // a message whose parent comes after it (a loop)
	ProblemWALLarge     = "WAL_LARGE"       // the write-ahead log is over walWarnBytes
	ProblemCheckStopped = "CHECK_FAILED"    // a check could not run to its end
	maxProblemsPerCheck = 50
	walWarnBytes        = 64 << 20
)

// VerifyReport is what Verify found: every problem, the figures it checked, and, after a
// repair, what was rebuilt.
type VerifyReport struct {
	OK           bool      `json:"ok"` // no problem that is damage
	Problems     []Problem `json:"problems"`
	SessionCount int64     `json:"sessionCount"`
	MessageCount int64     `json:"messageCount"`
	BlobCount    int64     `json:"blobCount"`
	FileSize     int64     `json:"fileBytes"`
	WALSize      int64     `json:"walBytes"`
	Repaired     []string  `json:"repaired"`
}

// verifier runs the checks on one connection of its own and gathers their problems.
type verifier struct {
	c      *sqlconn.Conn
	report *VerifyReport
	counts map[string]int // problems per code, to bound a badly damaged file's report
}

func (v *verifier) add(code, session, format string, args ...any) {
	v.counts[code]++
	if v.counts[code] > maxProblemsPerCheck {
		return
	}
	damage := code != ProblemBlobOrphan && code != ProblemWALLarge
	v.report.Problems = append(v.report.Problems, Problem{Code: code, Message: fmt.Sprintf(format, args...), SessionID: session, Damage: damage})
}

// stopped records a check that could not finish (the file too damaged to read).
func (v *verifier) stopped(check string, err error) {
	if err != nil {
		v.add(ProblemCheckStopped, "", "%s: %v", check, err)
	}
}

// Verify checks the whole store through a connection with sessionkeep's SQL functions:
// SQLite's integrity_check, each full-text index against its content, every message body
// decodes, every blob's bytes match its hash and every reference to one is there, each
// session's counts and parent links match its rows, and the WAL's size. With repair, it
// first rebuilds the full-text indexes and the sessions' counts from the rows (it never
// deletes a message or a blob) and then checks.
func (s *Store) Verify(repair bool) (*VerifyReport, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, errStoreClosedForVerify
	}
	if err := s.w.sync(); err != nil {
		return nil, err
	}
	c, err := openConn(s.path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	report := &VerifyReport{Problems: []Problem{}, Repaired: []string{}}
	if repair {
		if report.Repaired, err = repairStore(c); err != nil {
			return nil, err
		}
	}
	v := &verifier{c: c, report: report, counts: map[string]int{}}
	v.integrity()
	v.searchIndexes()
	refs := v.bodies()
	v.blobs(refs)
	v.sessionCounts()
	v.tree()
	v.sizes(s.path)
	report.OK = true
	for _, p := range report.Problems {
		if p.Damage {
			report.OK = false
		}
	}
	return report, nil
}

var errStoreClosedForVerify = errors.New("the store is closed")

// integrity runs SQLite's own check of the file's pages and indexes.
func (v *verifier) integrity() {
	err := v.c.Query(`PRAGMA integrity_check`, nil, func(row []driver.Value) error {
		if msg := fmt.Sprint(row[0]); msg != "ok" {
			v.add(ProblemIntegrity, "", "%s", msg)
		}
		return nil
	})
	v.stopped("integrity_check", err)
}

// searchIndexes checks both full-text indexes against their content views with FTS5's
// 'integrity-check' at rank 1. The indexes lag the rows by design (search_pending and
// body_pending), so the check indexes what is queued first, inside a transaction that it
// rolls back: the store is left as it was.
func (v *verifier) searchIndexes() {
	if _, err := v.c.Exec("BEGIN IMMEDIATE"); err != nil {
		v.stopped("starting the search index check", err)
		return
	}
	defer v.c.Exec("ROLLBACK")
	if err := indexQueued(v.c, -1); err != nil {
		v.add(ProblemSearchIndex, "", "indexing the queued rows: %v", err)
		return
	}
	for _, index := range []string{"message_search", "body_search"} {
		if _, err := v.c.Exec(`INSERT INTO ` + index + `(` + index + `, rank) VALUES ('integrity-check', 1)`); err != nil {
			v.add(ProblemSearchIndex, "", "%s: %v", index, err)
		}
	}
}

// bodies decodes every stored body and its layout, and returns the blob ids the layouts
// refer to.
func (v *verifier) bodies() map[int64]bool {
	refs := map[int64]bool{}
	var buf []byte
	err := v.c.Query(`SELECT s.id, m.seq, m.body, m.layout FROM messages m JOIN sessions s ON s.sid = m.sid`, nil, func(row []driver.Value) error {
		v.report.MessageCount++
		id, seq, stored := fmt.Sprint(row[0]), row[1].(int64), rowvalue.Bytes(row[2])
		if row[2] == nil {
			return nil
		}
		body, err := bodycodec.Unpack(buf, stored)
		if err != nil {
			v.add(ProblemBody, id, "message %d: %v", seq, err)
			return nil
		}
		if len(body) > len(buf) {
			buf = body[:0:cap(body)]
		}
		if !json.Valid(body) {
			v.add(ProblemBody, id, "message %d: its body is not valid JSON", seq)
			return nil
		}
		if l := rowvalue.Bytes(row[3]); l != nil {
			lay, err := msgbody.DecodeLayout(l, len(body), nil)
			if err != nil {
				v.add(ProblemBody, id, "message %d: %v", seq, err)
				return nil
			}
			for _, span := range lay.Blocks {
				if span.Blob != 0 {
					refs[span.Blob] = true
				}
			}
		}
		return nil
	})
	v.stopped("reading the messages' bodies", err)
	return refs
}

// blobs checks each blob against its hash, each reference against the table, and finds
// the blobs nothing refers to.
func (v *verifier) blobs(refs map[int64]bool) {
	err := v.c.Query(`SELECT blob_id FROM blocks WHERE blob_id IS NOT NULL
		UNION SELECT blob_id FROM snapshot_files WHERE blob_id IS NOT NULL`, nil, func(row []driver.Value) error {
		refs[row[0].(int64)] = true
		return nil
	})
	v.stopped("reading the references to blobs", err)
	present := map[int64]bool{}
	err = v.c.Query(`SELECT id, hash, data FROM blobs`, nil, func(row []driver.Value) error {
		v.report.BlobCount++
		id := row[0].(int64)
		present[id] = true
		if sum := sha256.Sum256(rowvalue.Bytes(row[2])); !bytes.Equal(sum[:], rowvalue.Bytes(row[1])) {
			v.add(ProblemBlobDamaged, "", "blob %d: its bytes do not match its hash", id)
		}
		if !refs[id] {
			v.add(ProblemBlobOrphan, "", "blob %d (%d bytes) is referred to by nothing", id, len(rowvalue.Bytes(row[2])))
		}
		return nil
	})
	v.stopped("reading the blobs", err)
	for id := range refs {
		if !present[id] {
			v.add(ProblemBlobMissing, "", "blob %d is referred to but not stored", id)
		}
	}
}

// sessionCounts compares each session's message and tool-use counts with its rows.
func (v *verifier) sessionCounts() {
	err := v.c.Query(`SELECT s.id, s.message_count, (SELECT COUNT(*) FROM messages m WHERE m.sid = s.sid),
		s.tool_count, (SELECT COUNT(*) FROM tool_uses t WHERE t.sid = s.sid) FROM sessions s`, nil, func(row []driver.Value) error {
		v.report.SessionCount++
		id := fmt.Sprint(row[0])
		if row[1] != row[2] {
			v.add(ProblemCount, id, "message_count is %v but the session has %v messages", row[1], row[2])
		}
		if row[3] != row[4] {
			v.add(ProblemCount, id, "tool_count is %v but the session has %v tool uses", row[3], row[4])
		}
		return nil
	})
	v.stopped("counting each session's rows", err)
}

// tree finds messages whose parent is the message itself or one stored after it: a tree
// that loops. A parent that is not in the session is not damage: an imported subagent's
// first record names a message of the main transcript's file.
func (v *verifier) tree() {
	// The parent is found by messages_by_uuid; +p.sid keeps the planner off the (sid, seq)
	// index, whose range p.seq < m.seq made this quadratic in a session's length.
	err := v.c.Query(`SELECT s.id, m.seq, m.parent_uuid FROM messages m
		JOIN messages p ON p.uuid = m.parent_uuid AND +p.sid = m.sid
		JOIN sessions s ON s.sid = m.sid
		WHERE m.parent_uuid != '' GROUP BY m.mid HAVING MIN(p.seq) >= m.seq`, nil, func(row []driver.Value) error {
		v.add(ProblemTree, fmt.Sprint(row[0]), "message %v: its parent %v comes after it in the session", row[1], row[2])
		return nil
	})
	v.stopped("reading the sessions' trees", err)
}

// sizes records the file's and the WAL's size; a WAL over walWarnBytes is reported.
func (v *verifier) sizes(path string) {
	if st, err := os.Stat(path); err == nil {
		v.report.FileSize = st.Size()
	}
	if st, err := os.Stat(path + "-wal"); err == nil {
		v.report.WALSize = st.Size()
		if st.Size() > walWarnBytes {
			v.add(ProblemWALLarge, "", "the write-ahead log is %d bytes", st.Size())
		}
	}
}
