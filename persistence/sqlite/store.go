package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/sessionkeep/sessionkeep/persistence/contextcache"
	"github.com/sessionkeep/sessionkeep/persistence/procowner"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/schema"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/hosted"
	"github.com/sessionkeep/sessionkeep/session/importing"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Store is the SQLite implementation of session.Store: one database file.
type Store struct {
	// Reads are the context cache's reads (contextbuild.CacheStore, FirstUncounted).
	contextcache.Reads
	path string
	w    *writer

	mu      sync.Mutex
	readers []*sqlconn.Conn // idle read connections
	direct  directReaders
	closed  bool
	watcher *watcher // started by the first Watch (watch.go)

	recovered []RecoveredSession // what opening the store found interrupted
}

// Store implements each of the session package's store interfaces, and so their composition.
var (
	_ session.MessageLog   = (*Store)(nil)
	_ session.Store        = (*Store)(nil)
	_ session.RecordSyncer = (*Store)(nil)
)

// The stores of the packages beside session (the catalogue, context building, token
// counting, file snapshots, hosted-agent state, importing), which a Store implements on the
// same value.
var (
	_ catalog.Listing         = (*Store)(nil)
	_ catalog.Searcher        = (*Store)(nil)
	_ catalog.UsageLog        = (*Store)(nil)
	_ catalog.Store           = (*Store)(nil)
	_ contextbuild.CacheStore = (*Store)(nil)
	_ tokens.Store            = (*Store)(nil)
	_ snapshots.Store         = (*Store)(nil)
	_ hosted.Store            = (*Store)(nil)
	_ importing.Store         = (*Store)(nil)
)

// maxIdleReaders is how many read connections a store keeps open between reads.
const maxIdleReaders = 4

// DefaultPath returns where a store lives when no path is given: $SESSIONKEEP_DB, else
// ~/.sessionkeep/sessions.db.
func DefaultPath() (string, error) {
	if p := os.Getenv("SESSIONKEEP_DB"); p != "" {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("%w: no store path given, SESSIONKEEP_DB is unset and the home directory is unknown: %v", session.ErrInvalidArgument, err)
	}
	return filepath.Join(home, ".sessionkeep", "sessions.db"), nil
}

// Open opens the store at path, creating the file (mode 0600, in a directory created
// 0700) and its schema when they do not exist. Messages left streaming by a process that
// is gone are marked interrupted.
func Open(path string) (*Store, error) {
	if err := createFile(path); err != nil {
		return nil, err
	}
	c, err := openConn(path)
	if err != nil {
		return nil, err
	}
	recovered, err := setUp(c)
	if err != nil {
		c.Close()
		return nil, err
	}
	w, err := newWriter(c, path, procowner.Self())
	if err != nil {
		c.Close()
		return nil, err
	}
	s := &Store{path: path, w: w, recovered: recovered}
	s.Reads = contextcache.Reads{Session: s.cacheSession}
	return s, nil
}

// setUp migrates the schema and recovers what a crash left unfinished, waiting out other
// processes that open the store at the same time: both steps are safe to repeat.
func setUp(c *sqlconn.Conn) (recovered []RecoveredSession, err error) {
	if err := retryBusy("migrating the schema", func() error { return schema.Migrate(c) }); err != nil {
		return nil, err
	}
	err = retryBusy("recovering interrupted sessions", func() (err error) {
		recovered, err = markInterrupted(c)
		return err
	})
	return recovered, err
}

// Recovered returns the sessions that opening the store found left open by a process that
// is gone, and marked interrupted.
func (s *Store) Recovered() []RecoveredSession { return s.recovered }

// createFile creates the database file with owner-only permissions; SQLite gives its WAL
// and shared-memory files the same mode.
func createFile(path string) error {
	err := os.MkdirAll(filepath.Dir(path), 0o700)
	if cannotWrite(err) {
		return fmt.Errorf("%w: the store's directory cannot be created: %v", session.ErrReadOnly, err)
	}
	if err != nil {
		return fmt.Errorf("%w: creating the store's directory: %v", session.ErrStorage, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if cannotWrite(err) {
		return fmt.Errorf("%w: %s cannot be opened for writing: %v", session.ErrReadOnly, path, err)
	}
	if err != nil {
		return fmt.Errorf("%w: opening %s: %v", session.ErrStorage, path, err)
	}
	return f.Close()
}

// cannotWrite reports whether err says the file system or the permissions refuse writing.
func cannotWrite(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission)
}

// Apply queues ops for the writer.
func (s *Store) Apply(ops ...session.Op) { s.w.enqueue(ops) }

// Sync waits until every Op queued so far is committed.
func (s *Store) Sync() error { return s.w.sync() }

// Flush waits until every Op queued so far is durable on disk.
func (s *Store) Flush() error { return s.w.flush() }

// TakeWriteError returns why queued writes are failing to commit, the first time it is
// asked during a run of failures; nil after that, and while commits succeed.
func (s *Store) TakeWriteError() error { return s.w.takeError() }

// Close commits and syncs what is queued and closes the database. Closing twice is a no-op.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	readers := s.readers
	s.readers = nil
	direct := s.direct
	s.direct = directReaders{}
	s.mu.Unlock()
	s.stopWatching()
	// The writer's connection closes last: the last connection to a WAL database folds the
	// log into the file and deletes it, which a read-only direct connection cannot do.
	err := direct.close()
	for _, c := range readers {
		err = errors.Join(err, c.Close())
	}
	return errors.Join(err, s.w.close())
}

// read runs fn on an idle read connection, opening one when none is idle.
func (s *Store) read(fn func(c *sqlconn.Conn) error) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return session.ErrStoreClosed
	}
	var c *sqlconn.Conn
	if n := len(s.readers); n > 0 {
		c, s.readers = s.readers[n-1], s.readers[:n-1]
	}
	s.mu.Unlock()
	if c == nil {
		var err error
		if c, err = openConn(s.path); err != nil {
			return errors.Join(storeThere(s.path), err)
		}
	}
	err := fn(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.readers) >= maxIdleReaders {
		return errors.Join(err, c.Close())
	}
	s.readers = append(s.readers, c)
	return err
}

// openConn opens a connection to the database file at path. Its pragmas take a lock when
// the file is new (switching it to WAL), so opening waits out other processes doing the
// same.
func openConn(path string) (*sqlconn.Conn, error) {
	var c *sqlconn.Conn
	err := retryBusy("opening "+path, func() (err error) {
		c, err = sqlconn.Open(path)
		return err
	})
	return c, err
}
