package sqlite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestAMessageEndedAcrossTheUpgradeIsSettled opens testdata/v9-across-upgrade.sql, the dump
// of a store in which a process of the code before migration 10 streamed a reply with a
// large block, another process (today's code) opened and migrated the store, and the old
// process then ended its reply (testdata/v9acrossupgrade records how): the reply's body has
// a hole its reader cannot decode, and its block rows and blob are left. Opening the store
// fills the hole and drops the rows and the blob: the reply reads whole, and verify finds
// no unreadable body and no orphan blob.
func TestAMessageEndedAcrossTheUpgradeIsSettled(t *testing.T) {
	path, db := storeFromDump(t, "v9-across-upgrade.sql")
	if n := queryInt(t, db, `SELECT count(*) FROM messages WHERE body IS NOT NULL AND NOT json_valid(body)`); n != 1 {
		t.Fatalf("%d bodies with a hole in the dump, want 1: the test proves nothing", n)
	}
	if n := queryInt(t, db, `SELECT count(*) FROM blocks WHERE blob_id IS NOT NULL`); n != 1 {
		t.Fatalf("%d block rows naming a blob in the dump, want 1", n)
	}
	db.Close()

	s := openAt(t, path)
	after := rawDB(t, path)
	if n := queryInt(t, after, `SELECT count(*) FROM blocks`) + queryInt(t, after, `SELECT count(*) FROM blobs`); n != 0 {
		t.Errorf("%d block and blob rows left after the open, want 0", n)
	}
	report, err := s.Verify(false)
	if err != nil {
		t.Fatal(err)
	}
	if !report.OK || len(report.Problems) != 0 {
		t.Errorf("verify after the open: %+v", report.Problems)
	}
	var id string
	if err := after.QueryRow(`SELECT id FROM sessions`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	sess, err := session.NewManager(s).Open(id)
	if err != nil {
		t.Fatal(err)
	}
	read, err := sess.Messages(false)
	if err != nil {
		t.Fatal(err)
	}
	// Bodies hold non-ASCII characters escaped.
	if !bytes.Contains(read, []byte(strings.Repeat(`across the upgrade \u2192 \u2713 `, 600))) {
		t.Errorf("the reply's large block is not read back whole: %.300s", read)
	}
	if !bytes.Contains(read, []byte(`"path":"a"`)) {
		t.Errorf("the tool call the old process ended is not read back: %.300s", read)
	}
}
