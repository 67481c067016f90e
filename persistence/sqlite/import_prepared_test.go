package sqlite

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/interop"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// realTranscripts is the team's folder of real Claude Code transcripts and Codex rollouts.
const realTranscripts = "../../../shared/fixtures/real"

// countingPrepared is a Store whose Apply does what enqueue does, preparing the records
// and queueing the prepared ops, and counts the records it prepares.
type countingPrepared struct {
	*Store
	prepared atomic.Int64
}

func (s *countingPrepared) Apply(ops ...session.Op) {
	out := msgbody.PrepareImported(ops)
	for _, op := range out {
		if end, ok := op.(session.EndMessage); ok && msgbody.Prepared(end) != nil {
			s.prepared.Add(1)
		}
	}
	s.w.queueOps(out)
}

// unprepared is a Store whose Apply queues ops as they come, so the writer goroutine
// encodes and packs every record itself, as before records were prepared.
type unprepared struct{ *Store }

func (s unprepared) Apply(ops ...session.Op) { s.w.queueOps(ops) }

// importRealInto imports the real transcripts through a Manager over st and returns the
// messages table of path, one hash per row in order, every column included.
func importRealInto(t *testing.T, st session.Store, s *Store, path string) []string {
	t.Helper()
	mgr := session.NewManager(st)
	if _, err := interop.Import(mgr, realTranscripts, interop.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, rawDB(t, path), `SELECT count(*) FROM blocks`); n != 0 {
		t.Fatalf("%d block rows left after an import", n)
	}
	rows, err := rawDB(t, path).Query(`SELECT * FROM messages ORDER BY mid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var hashes []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%q", vals))))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return hashes
}

// TestAPreparedImportStoresWhatTheWriterMakes: importing the real transcripts with their
// records prepared on the importing goroutine stores every message row, bodies, layouts and
// packed columns included, byte for byte as the writer goroutine encoding them does; and
// every record is prepared.
func TestAPreparedImportStoresWhatTheWriterMakes(t *testing.T) {
	if _, err := os.Stat(realTranscripts); err != nil {
		t.Skipf("the real fixtures are not beside the repository: %v", err)
	}
	pathA := filepath.Join(t.TempDir(), "prepared.db")
	a := &countingPrepared{Store: openAt(t, pathA)}
	got := importRealInto(t, a, a.Store, pathA)

	pathB := filepath.Join(t.TempDir(), "unprepared.db")
	b := openAt(t, pathB)
	want := importRealInto(t, unprepared{b}, b, pathB)

	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d rows prepared, %d not", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d differs from the writer's", i+1)
		}
	}
	if n := a.prepared.Load(); n != int64(len(got)) {
		t.Errorf("%d of %d records prepared", n, len(got))
	}
}
