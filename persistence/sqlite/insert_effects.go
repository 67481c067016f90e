package sqlite

import (
	"strconv"
	"strings"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/schema"
	"github.com/sessionkeep/sessionkeep/session"
)

// What inserting a message row implies beside the row, done by the writer once per batch
// rather than by AFTER INSERT triggers on messages (dropped by migration 14): a body is
// queued for the search index (body_pending), and a session whose main chain does not
// follow on is marked branched. A trigger made each INSERT a statement that writes several
// tables and may abort, for which SQLite opens a statement journal and copies every page
// the row touches before changing it: half the cost of inserting a row (bench/README.md,
// issue 16 round 4). The UPDATE trigger that queues a body set later, and the DELETE one
// that takes a row out of the index, stay.

// insertEffects is what the rows inserted by the batch being applied still owe.
type insertEffects struct {
	bodies []int64                // mids of rows inserted with a body, not queued yet
	chains map[int64]*chainInsert // by sid: the main-chain rows inserted
}

// chainInsert follows the main-chain rows a batch inserts into one session. While each
// comes after the one before it (a greater seq) with that one's uuid as its parent, as a
// conversation goes, only the first needs checking against the rows stored before the
// batch; otherwise every row from the first is checked in SQL.
type chainInsert struct {
	firstMid, firstSeq int64
	firstParent        string
	lastSeq            int64
	lastUUID           string
	linear             bool
}

// noteInsert records what the row mid of session sid, just inserted with header h and
// with a body or not, owes.
func (e *insertEffects) noteInsert(sid, mid int64, h session.MessageHeader, body bool) {
	if body {
		e.bodies = append(e.bodies, mid)
	}
	if h.IsSidechain {
		return
	}
	if e.chains == nil {
		e.chains = map[int64]*chainInsert{}
	}
	c := e.chains[sid]
	if c == nil {
		e.chains[sid] = &chainInsert{firstMid: mid, firstSeq: h.Seq, firstParent: h.ParentUUID, lastSeq: h.Seq, lastUUID: h.UUID, linear: true}
		return
	}
	c.linear = c.linear && h.Seq > c.lastSeq && (h.ParentUUID == "" || h.ParentUUID == c.lastUUID)
	c.lastSeq, c.lastUUID = h.Seq, h.UUID
}

// reset forgets what is owed: the batch was rolled back.
func (e *insertEffects) reset() { *e = insertEffects{} }

// settleInserts queues the noted bodies for the search index and marks branched the sessions whose
// new main-chain rows do not each follow the main-chain row before them (the condition
// migration 5's trigger checked). It must run before the batch commits, and before a row it
// owes for is deleted: the delete trigger takes a row out of the index unless it is queued.
func (w *writer) settleInserts() error {
	e := &w.inserted
	if len(e.bodies) > 0 {
		var list strings.Builder
		list.WriteByte('[')
		for i, mid := range e.bodies {
			if i > 0 {
				list.WriteByte(',')
			}
			list.WriteString(strconv.FormatInt(mid, 10))
		}
		list.WriteByte(']')
		if _, err := w.c.Exec(`INSERT OR IGNORE INTO body_pending(mid) SELECT value FROM json_each(?)`, list.String()); err != nil {
			return err
		}
	}
	for sid, c := range e.chains {
		var err error
		if c.linear {
			err = w.checkFollows(sid, c.firstSeq, c.firstParent)
		} else {
			err = w.checkBranched(sid, c.firstMid)
		}
		if err != nil {
			return err
		}
	}
	e.reset()
	return nil
}

// checkFollows marks session sid branched when parent, that of its main-chain row seq, is
// not the uuid of the main-chain row before it (an empty parent follows anything).
func (w *writer) checkFollows(sid, seq int64, parent string) error {
	if parent == "" {
		return nil
	}
	_, err := w.c.Exec(`UPDATE sessions SET branched = 1 WHERE sid = ?1 AND branched = 0 AND ?3 IS NOT (
			SELECT p.uuid FROM messages p WHERE p.sid = ?1 AND p.is_sidechain = 0 AND p.seq < ?2 ORDER BY p.seq DESC LIMIT 1)`,
		sid, seq, parent)
	return err
}

// checkBranched marks session sid branched when one of its main-chain rows from mid from on
// has a parent other than the main-chain row before it. The rows are found by mid (the
// unary + keeps SQLite off the indexes on sid, which would walk the whole session); a
// negative from checks every row of the session (a fork's copy). The subquery names the
// outer row's sid, not ?1, so that SQLite runs it only for a session not yet branched
// rather than once before the UPDATE, whatever the flag.
func (w *writer) checkBranched(sid, from int64) error {
	rows := `m.mid >= ?2 AND +m.sid = sessions.sid`
	if from < 0 {
		rows = `m.sid = sessions.sid`
	}
	_, err := w.c.Exec(`UPDATE sessions SET branched = 1 WHERE sid = ?1 AND branched = 0 AND EXISTS (
			SELECT 1 FROM messages m WHERE `+rows+` AND m.is_sidechain = 0 AND m.parent_uuid != ''
				AND m.parent_uuid IS NOT (`+schema.PreviousMainUUID("m")+`))`, sid, from)
	return err
}
