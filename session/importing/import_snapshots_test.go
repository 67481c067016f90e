package importing_test

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/importing"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// withSnapshot is transcript() with a file snapshot on its first record, as the Claude
// Code importer gives a file-history-snapshot record.
func withSnapshot() []importing.Record {
	recs := transcript()
	recs[0].FileSnapshot = &session.FileSnapshot{ID: "snap-s0", MessageUUID: "u1",
		Files: []session.SnapshotFile{{Path: "a.go", State: session.FilePresent, Content: []byte("package a\n")}}}
	return recs
}

func TestImportedSnapshotsArePutOnceEvenForRecordsAlreadyStored(t *testing.T) {
	e := sessiontest.NewEnv(t)
	sessiontest.Must(importing.Import(e.Mgr, target("imp-snap"), transcript())) // imported before snapshots were read
	listed := func() []session.SessionInfo { return sessiontest.Must(catalog.List(e.Mgr, catalog.ListFilter{})) }
	before := listed()[0].UpdatedAt
	for i := 0; i < 2; i++ {
		count := sessiontest.Must(importing.Import(e.Mgr, target("imp-snap"), withSnapshot()))
		if count.Added != 0 || count.Existing != 7 {
			t.Fatalf("import %d = %+v", i, count)
		}
		if err := e.Store.Sync(); err != nil {
			t.Fatal(err)
		}
		snaps := sessiontest.Must(e.Store.FileSnapshots("imp-snap"))
		if len(snaps) != 1 || snaps[0].ID != "snap-s0" || snaps[0].MessageUUID != "u1" || !snaps[0].Files[0].BackedUp {
			t.Fatalf("import %d: snapshots = %+v", i, snaps)
		}
		if got := listed()[0].UpdatedAt; !got.Equal(before) {
			t.Fatalf("import %d moved the session's last activity from %v to %v", i, before, got)
		}
	}
	if !before.Equal(t0.Add(6 * time.Second)) {
		t.Fatalf("last activity %v", before)
	}
}
