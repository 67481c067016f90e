package sqlite_test

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/interop"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
)

// mainImportSource is the transcript testdata/main-import.sql holds: one of our own
// (testdata/mainimport/make.cjs wrote both), and the `sqlite3 .dump` of the store main
// (505d7f0, issue 16 round 7) imported it into, its bodies over 1 KB packed with s2.
const mainImportSource = "testdata/mainimport/transcript.jsonl"

// TestAStoreMainImportedReadsAsAnImportNow: the store main wrote reads, through this code,
// the same messages and envelopes as the same transcript imported now (bodies packed with
// zstd and the dictionary): the new codec is beside the old one, not instead of it.
func TestAStoreMainImportedReadsAsAnImportNow(t *testing.T) {
	src := mainImportSource
	dump, err := os.ReadFile(filepath.Join("testdata", "main-import.sql"))
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(t.TempDir(), "main.db")
	db, err := sql.Open("sqlite", old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(dump)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	then, err := sqlite.Open(old)
	if err != nil {
		t.Fatal(err)
	}
	defer then.Close()

	nowPath := filepath.Join(t.TempDir(), "now.db")
	now, err := sqlite.Open(nowPath)
	if err != nil {
		t.Fatal(err)
	}
	mgr := session.NewManager(now)
	defer mgr.Close()
	res, err := interop.Import(mgr, src, interop.ImportOptions{})
	if err != nil || len(res.Sessions) != 1 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	if err := now.Sync(); err != nil {
		t.Fatal(err)
	}
	id := res.Sessions[0]
	for path, marker := range map[string]string{old: "00", nowPath: "01"} {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM messages WHERE hex(substr(body, 1, 1)) = ?`, marker).Scan(&n); err != nil || n < 3 {
			t.Fatalf("%s: %d bodies starting with %s, %v", path, n, marker, err)
		}
		db.Close()
	}
	read := func(st *sqlite.Store) (msgs []session.StoredMessage, envelopes [][]byte) {
		err := st.ScanMessages(id, func(m *session.StoredMessage) error {
			c := *m
			c.Blocks = nil
			for _, b := range m.Blocks {
				c.Blocks = append(c.Blocks, bytes.Clone(b))
			}
			c.Meta, c.Extra = bytes.Clone(m.Meta), bytes.Clone(m.Extra)
			msgs = append(msgs, c)
			return nil
		})
		if err == nil {
			err = st.ScanEncoded(id, 0, func(m *session.StoredMessage) error {
				envelopes = append(envelopes, bytes.Join(m.Encoded, nil))
				return nil
			})
		}
		if err != nil {
			t.Fatal(err)
		}
		return msgs, envelopes
	}
	thenMsgs, thenEnv := read(then)
	nowMsgs, nowEnv := read(now)
	if len(thenMsgs) != 12 || !reflect.DeepEqual(thenMsgs, nowMsgs) {
		t.Errorf("main's store reads %d messages, an import now %d, or they differ", len(thenMsgs), len(nowMsgs))
	}
	if !reflect.DeepEqual(thenEnv, nowEnv) {
		t.Errorf("the envelopes of main's store and of an import now differ")
	}
}
