package sqlite

import (
	"crypto/sha256"
	"testing"
)

// verified runs Verify and returns the codes of its problems.
func verified(t *testing.T, s *Store, repair bool) (*VerifyReport, map[string]int) {
	t.Helper()
	r, err := s.Verify(repair)
	if err != nil {
		t.Fatalf("Verify(%v): %v", repair, err)
	}
	codes := map[string]int{}
	for _, p := range r.Problems {
		codes[p.Code]++
	}
	return r, codes
}

func TestVerifyFindsNothingInAStoreAsWritten(t *testing.T) {
	s, _, _, _, _ := twoSessions(t)
	r, codes := verified(t, s, false)
	if !r.OK || len(codes) != 0 {
		t.Fatalf("a store as written: %+v", r.Problems)
	}
	if r.SessionCount != 2 || r.MessageCount != 2 {
		t.Fatalf("checked %d sessions, %d messages; want 2, 2", r.SessionCount, r.MessageCount)
	}
}

// Each kind of damage a file can take is found with its code; --repair rebuilds what is
// derived (the search indexes, the counts) and leaves every message where it was.
func TestVerifyFindsEachDamageAndRepairsWhatIsDerived(t *testing.T) {
	s, path, _, a, _ := twoSessions(t)
	indexed(t, s)
	db := rawDB(t, path)
	exec(t, db, `INSERT INTO body_search(body_search, rowid, text) SELECT 'delete', mid, text FROM body_search_text`)
	exec(t, db, `UPDATE sessions SET message_count = message_count + 3 WHERE id = ?`, a)
	r, codes := verified(t, s, false)
	if r.OK || codes[ProblemSearchIndex] != 1 || codes[ProblemCount] != 1 || len(codes) != 2 {
		t.Fatalf("an index emptied and a count off: %+v", r.Problems)
	}
	if r.Problems[len(r.Problems)-1].SessionID != a {
		t.Fatalf("the count's problem names session %q, want %q", r.Problems[len(r.Problems)-1].SessionID, a)
	}
	r, codes = verified(t, s, true)
	if !r.OK || len(codes) != 0 || len(r.Repaired) != 3 {
		t.Fatalf("after --repair: %+v, repaired %v", r.Problems, r.Repaired)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages`); n != 2 {
		t.Fatalf("%d messages after the repair, want 2", n)
	}

	sum := sha256.Sum256([]byte("orphan"))
	exec(t, db, `INSERT INTO blobs(hash, size, data) VALUES (?, 6, 'orphan')`, sum[:])
	r, codes = verified(t, s, false)
	if !r.OK || codes[ProblemBlobOrphan] != 1 {
		t.Fatalf("an orphan blob is waste, not damage: %+v", r.Problems)
	}
	exec(t, db, `UPDATE blobs SET data = 'orphaN'`)
	exec(t, db, `INSERT INTO blocks(sid, seq, idx, partial, blob_id) SELECT sid, 99, 0, 1, 4242 FROM sessions LIMIT 1`)
	exec(t, db, `UPDATE messages SET parent_uuid = uuid`)
	exec(t, db, `UPDATE messages SET body = X'ff0102' WHERE mid = (SELECT MIN(mid) FROM messages)`)
	r, codes = verified(t, s, true)
	want := map[string]int{ProblemBlobDamaged: 1, ProblemBlobOrphan: 1, ProblemBlobMissing: 1, ProblemTree: 2, ProblemBody: 1}
	if r.OK || len(codes) != len(want) {
		t.Fatalf("damage a repair cannot mend: %+v", r.Problems)
	}
	for code, n := range want {
		if codes[code] != n {
			t.Fatalf("%s found %d times, want %d: %+v", code, codes[code], n, r.Problems)
		}
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages`); n != 2 {
		t.Fatalf("%d messages after the repair, want 2", n)
	}
}
