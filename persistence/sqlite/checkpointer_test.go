package sqlite

import (
	"database/sql/driver"
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestCheckpointerCopiesTheWALBesideTheWriter commits more than checkpointPages and less
// than the writer's own automatic checkpoint, without a flush: the database file grows
// only if the checkpointer copied the WAL into it.
func TestCheckpointerCopiesTheWALBesideTheWriter(t *testing.T) {
	s, path := openTemp(t)
	var auto int64
	if err := s.w.c.Query("PRAGMA wal_autocheckpoint", nil, func(row []driver.Value) error {
		auto = row[0].(int64)
		return nil
	}); err != nil || auto != writerCheckpointPages {
		t.Fatalf("the writer's wal_autocheckpoint = %d (%v), want %d", auto, err, writerCheckpointPages)
	}

	a := mustCreate(t, session.NewManager(s), session.CreateOptions{})
	// About 1.4 MB that packing cannot shrink much: 350 pages and more.
	addRandomMessages(t, s, a, rand.New(rand.NewPCG(1, 2)), 48<<10, 30)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		// A new store's file is 4 KB until a checkpoint copies its WAL into it: here ~1.4 MB
		// by the checkpointer, none by the writer's own (1,024 pages, not reached).
		if info.Size() >= 600<<10 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the database file is %d bytes after %d pages committed: no checkpoint copied the WAL", info.Size(), checkpointPages)
		}
	}
}

// TestTheWALIsCutBackAfterABurst writes about 10 MB, more than walSizeLimit, while a reader
// holds an older snapshot, then small messages once it is done: once a checkpoint has copied
// the burst, the writer starts the WAL over and journal_size_limit cuts the file back, where
// it would otherwise keep the burst's size.
func TestTheWALIsCutBackAfterABurst(t *testing.T) {
	s, path := openTemp(t)
	a := mustCreate(t, session.NewManager(s), session.CreateOptions{})
	rnd := rand.New(rand.NewPCG(3, 4))
	add := func(n int) { addRandomMessages(t, s, a, rnd, 64<<10, n) }
	walSize := func() int64 {
		info, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	// A reader of the snapshot before the burst keeps the WAL from being started over
	// during it, as a restore in another process would.
	reader, err := rawDB(t, path).Begin()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := reader.QueryRow(`SELECT count(*) FROM messages`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	add(160)
	reader.Rollback()
	if burst := walSize(); burst <= walSizeLimit {
		t.Fatalf("the burst left a WAL of %d bytes, not over the limit (%d): the test proves nothing", burst, walSizeLimit)
	}
	for deadline := time.Now().Add(10 * time.Second); walSize() > walSizeLimit; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the WAL is still %d bytes after the burst was checkpointed, over journal_size_limit (%d)", walSize(), walSizeLimit)
		}
		add(1)
	}
}

// addRandomMessages adds n user messages of size random letters (which packing cannot shrink
// much) to session a of store s, and syncs.
func addRandomMessages(t *testing.T, s *Store, a *session.Session, rnd *rand.Rand, size, n int) {
	t.Helper()
	text := make([]byte, size)
	for range n {
		for i := range text {
			text[i] = 'a' + byte(rnd.IntN(26))
		}
		content, _ := json.Marshal(string(text))
		if _, err := a.AddUserMessage(content, nil, session.MessageOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
}
