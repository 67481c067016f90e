package sqlite

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/interop"
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
	out := prepareImported(ops)
	for _, op := range out {
		if end, ok := op.(session.EndMessage); ok && prepared(end) != nil {
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

// TestOnlyARecordWholeInOneApplyIsPrepared: a record is prepared when its BeginMessage,
// its blocks in order and its imported EndMessage come in one Apply; one split over two
// Applies, with a partial block or blocks out of order, or a live message's, is left to
// the writer; the caller's slice is never changed.
func TestOnlyARecordWholeInOneApplyIsPrepared(t *testing.T) {
	const sid = "s"
	begin := session.BeginMessage{SessionID: sid, Header: session.MessageHeader{
		Seq: 3, UUID: "u3", Type: session.TypeUser, Role: "user", CreatedAt: time.UnixMilli(1_700_000_000_000)}}
	block := func(i int, json string) session.PutBlock {
		return session.PutBlock{SessionID: sid, Seq: 3, Index: i, JSON: []byte(json)}
	}
	b0, b1 := block(0, `{"type":"text","text":"hello"}`), block(1, `{"type":"text","text":"again"}`)
	end := session.EndMessage{SessionID: sid, Seq: 3, Status: session.MessageComplete, Imported: true}
	live := end
	live.Imported = false
	partial := b1
	partial.Partial = true
	notMessage := begin
	notMessage.Header.Role, notMessage.Header.Type = "", "system"

	for name, c := range map[string]struct {
		ops  []session.Op
		want bool
	}{
		"whole":                        {[]session.Op{begin, b0, b1, end}, true},
		"a record that is not message": {[]session.Op{notMessage, end}, true},
		"begun in another Apply":       {[]session.Op{b0, b1, end}, false},
		"ended in another Apply":       {[]session.Op{begin, b0, b1}, false},
		"a partial block":              {[]session.Op{begin, b0, partial, end}, false},
		"blocks out of order":          {[]session.Op{begin, b1, b0, end}, false},
		"a live message":               {[]session.Op{begin, b0, b1, live}, false},
	} {
		out := prepareImported(c.ops)
		got := false
		for i, op := range out {
			if e, ok := op.(session.EndMessage); ok && prepared(e) != nil {
				got = true
				if prepared(c.ops[i].(session.EndMessage)) != nil {
					t.Errorf("%s: the caller's EndMessage was changed", name)
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: prepared %v, want %v", name, got, c.want)
		}
	}
}
