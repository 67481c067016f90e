package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// holdWriteLock takes the store file's write lock through a connection of its own, as
// another process inside a long transaction would, and returns the function that lets go.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db := rawDB(t, path)
	db.SetMaxOpenConns(1)
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			c.ExecContext(context.Background(), "ROLLBACK")
			c.Close()
		}
	}
	t.Cleanup(release)
	return release
}

// shortBusyBound makes the writer give up on a lock after d, for the test.
func shortBusyBound(t *testing.T, d time.Duration) {
	old := busyBound
	busyBound = d
	t.Cleanup(func() { busyBound = old })
}

func TestFlushWaitsOutALockPastSQLitesBusyTimeout(t *testing.T) {
	s, path := openTemp(t)
	release := holdWriteLock(t, path)
	// Past one busy_timeout of SQLite's own handler: the writer's retries carry on.
	time.AfterFunc(time.Duration(sqlconn.BusyTimeoutMS)*time.Millisecond+500*time.Millisecond, release)
	start := time.Now()
	s.Apply(session.CreateSession{Info: newInfo("s-locked")})
	if err := s.Flush(); err != nil {
		t.Fatalf("Flush while another connection held the lock: %v", err)
	}
	if waited := time.Since(start); waited < time.Duration(sqlconn.BusyTimeoutMS)*time.Millisecond {
		t.Fatalf("Flush returned after %v, before the lock was let go", waited)
	}
	if got := queryInt(t, rawDB(t, path), `SELECT COUNT(*) FROM sessions WHERE id = 's-locked'`); got != 1 {
		t.Fatalf("sessions with the id: %d", got)
	}
}

func TestFlushReportsALockHeldPastTheBoundAndCommitsAfterIt(t *testing.T) {
	shortBusyBound(t, 300*time.Millisecond)
	s, path := openTemp(t)
	release := holdWriteLock(t, path)
	s.Apply(session.CreateSession{Info: newInfo("s-late")})
	err := s.Flush()
	if !errors.Is(err, session.ErrBusy) || !strings.Contains(err.Error(), "committing waited") {
		t.Fatalf("Flush with the lock held past the bound: %v, want ErrBusy saying what waited", err)
	}
	if !strings.Contains(err.Error(), "no other process has a session of the store open") {
		t.Fatalf("the error does not say who may hold the lock: %v", err)
	}
	if taken := s.TakeWriteError(); !errors.Is(taken, session.ErrBusy) {
		t.Fatalf("TakeWriteError: %v", taken)
	}
	if again := s.TakeWriteError(); again != nil {
		t.Fatalf("TakeWriteError a second time in the same run of failures: %v", again)
	}
	release()
	if err := s.Flush(); err != nil {
		t.Fatalf("Flush after the lock was let go: %v", err)
	}
	if got := queryInt(t, rawDB(t, path), `SELECT COUNT(*) FROM sessions WHERE id = 's-late'`); got != 1 {
		t.Fatalf("the queued session was not committed: %d", got)
	}
}

func TestOpenWaitsOutALockOnANewStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	openAt(t, path).Close() // the file exists, so another connection can lock it
	release := holdWriteLock(t, path)
	time.AfterFunc(300*time.Millisecond, release)
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open while another connection held the lock: %v", err)
	}
	s.Close()
}

func TestARolledBackSessionKeyIsNotReused(t *testing.T) {
	// A batch that created a session and failed to commit forgets the session's key: another
	// process may take that rowid before the batch is retried.
	shortBusyBound(t, 200*time.Millisecond)
	s, path := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("s-first")})
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s.w.q.Lock()
	s.w.sids["s-ghost"] = 999 // as a rolled-back insert would have left it
	s.w.q.Unlock()
	release := holdWriteLock(t, path)
	s.Apply(session.CreateSession{Info: newInfo("s-second")})
	if err := s.Flush(); !errors.Is(err, session.ErrBusy) {
		t.Fatalf("Flush: %v", err)
	}
	release()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s.w.q.Lock()
	_, kept := s.w.sids["s-ghost"]
	s.w.q.Unlock()
	if kept {
		t.Fatal("a failed commit kept the session keys it had cached")
	}
	var db *sql.DB = rawDB(t, path)
	if got := queryInt(t, db, `SELECT COUNT(*) FROM sessions`); got != 2 {
		t.Fatalf("sessions: %d", got)
	}
}

func TestSearchWaitsOutALockOnTheIndex(t *testing.T) {
	s, path := openTemp(t)
	writeSearchable(t, s, "lighthouse")
	release := holdWriteLock(t, path)
	// Past SQLite's busy timeout: the index step meets the lock and tries again.
	time.AfterFunc(time.Duration(sqlconn.BusyTimeoutMS)*time.Millisecond+300*time.Millisecond, release)
	if got := searchCount(t, s, "lighthouse"); got != 1 {
		t.Fatalf("hits after the lock was let go: %d", got)
	}
}

func TestFlushSyncsTheWALWhenAReaderKeepsTheCheckpointShort(t *testing.T) {
	s, path := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("s-1")})
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	// A reader in a transaction keeps its snapshot: frames committed after it cannot be
	// copied into the database file until it ends.
	db := rawDB(t, path)
	db.SetMaxOpenConns(1)
	reader, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if _, err := reader.ExecContext(context.Background(), "BEGIN"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := reader.QueryRowContext(context.Background(), "SELECT COUNT(*) FROM sessions").Scan(&n); err != nil {
		t.Fatal(err)
	}
	s.Apply(session.CreateSession{Info: newInfo("s-2")})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	// checkpointed on a connection of its own: the store's is its writer goroutine's.
	c, err := openConn(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	probe := &writer{c: c}
	if probe.checkpointed() {
		t.Fatal("the checkpoint copied frames a reader's snapshot still needs")
	}
	if err := s.Flush(); err != nil {
		t.Fatalf("Flush with the checkpoint held short: %v", err)
	}
	reader.ExecContext(context.Background(), "ROLLBACK")
	if !probe.checkpointed() {
		t.Fatal("the checkpoint is still short once the reader is done")
	}
}

func TestALockPastTheBoundNamesTheProcessesWithSessionsOpen(t *testing.T) {
	shortBusyBound(t, 300*time.Millisecond)
	s, path := openTemp(t)
	exec(t, rawDB(t, path), `INSERT INTO sessions(id, created_at, updated_at, owner, is_open) VALUES ('other', 0, 0, 'buildhost:4242:99', 1)`)
	holdWriteLock(t, path)
	s.Apply(session.CreateSession{Info: newInfo("s-waits")})
	err := s.Flush()
	if !errors.Is(err, session.ErrBusy) || !strings.Contains(err.Error(), "processes with sessions of the store open: pid 4242 on buildhost") {
		t.Fatalf("Flush: %v, want ErrBusy naming pid 4242", err)
	}
}
