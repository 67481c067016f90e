package sqlite

import (
	"database/sql/driver"
	"fmt"
	"sync"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/persistence/watchset"
	"github.com/sessionkeep/sessionkeep/session"
)

// watchInterval is how often the watcher asks SQLite whether the database changed. The
// question is PRAGMA data_version on a connection of its own: it reads the WAL's index in
// shared memory and touches no table, so asking often costs next to nothing, and a commit
// by any connection of any process is seen this long after it, at most.
const watchInterval = 25 * time.Millisecond

// watcher follows the database for the store's Watch callers: when data_version moves, it
// reads the listing row of each watched session and counts a change for those whose row
// moved. A commit to a session always moves its row (the writer's touch sets updated_at
// and the counts), so no table other than sessions is read, and only by primary key.
type watcher struct {
	// cmu guards c, which the watcher's goroutine asks for data_version and a Watch call
	// reads a row with (a conn is one SQLite connection: one user at a time).
	cmu     sync.Mutex
	c       *sqlconn.Conn
	stop    chan struct{}
	done    chan struct{}
	watched *watchset.Set[seenRow]
}

// seenRow is what the watcher last saw of a watched session's listing row.
type seenRow struct {
	row string
	// recent: the row's updated_at was within a millisecond of the look, so a second
	// commit in the same millisecond could leave the row as it was.
	recent bool
}

// Watch starts following session id (once per caller: Unwatch ends it) and returns its
// change count so far; WatchVersion then tells whether it moved. The first Watch of a
// store opens the watcher's connection, so no commit made after Watch returns is missed.
func (s *Store) Watch(id string) (uint64, error) {
	w, err := s.startWatcher()
	if err != nil {
		return 0, err
	}
	return w.watched.Add(id, func() seenRow { return w.listingRow(id) }), nil
}

// WatchVersion returns the change count of a watched session: it grows after each commit
// that changed it, by any connection of any process; 0 for a session not watched. Once the
// store is closed it is ErrStoreClosed, which ends a caller's watch.
func (s *Store) WatchVersion(id string) (uint64, error) {
	s.mu.Lock()
	w, closed := s.watcher, s.closed
	s.mu.Unlock()
	if closed {
		return 0, session.ErrStoreClosed
	}
	if w == nil {
		return 0, nil
	}
	return w.watched.Version(id), nil
}

// Unwatch ends one Watch of session id.
func (s *Store) Unwatch(id string) {
	s.mu.Lock()
	w := s.watcher
	s.mu.Unlock()
	if w != nil {
		w.watched.Remove(id)
	}
}

// startWatcher returns the store's watcher, starting it on first use.
func (s *Store) startWatcher() (*watcher, error) {
	s.mu.Lock()
	w, closed := s.watcher, s.closed
	s.mu.Unlock()
	if closed {
		return nil, session.ErrStoreClosed
	}
	if w != nil {
		return w, nil
	}
	c, err := openConn(s.path)
	if err != nil {
		return nil, err
	}
	version, err := dataVersion(c)
	if err != nil {
		c.Close()
		return nil, sqlconn.Wrap("following "+s.path, err)
	}
	started := &watcher{c: c, stop: make(chan struct{}), done: make(chan struct{}), watched: watchset.New[seenRow]()}
	s.mu.Lock()
	if s.watcher == nil && !s.closed {
		s.watcher, started = started, nil
	}
	w, closed = s.watcher, s.closed
	s.mu.Unlock()
	if started != nil {
		c.Close() // another Watch started one first, or the store closed meanwhile
	} else {
		go w.run(version)
	}
	if closed {
		return nil, session.ErrStoreClosed
	}
	return w, nil
}

// stopWatching ends the store's watcher, if one runs, and closes its connection; Close
// calls it before closing the other connections.
func (s *Store) stopWatching() {
	s.mu.Lock()
	w := s.watcher
	s.watcher = nil
	s.mu.Unlock()
	if w != nil {
		close(w.stop)
		<-w.done
	}
}

// run asks for data_version every watchInterval until stopped, and looks at the watched
// sessions when it moved. An error (the file gone) counts as a change of every watched
// session, so that their watchers read and meet the error themselves.
func (w *watcher) run(seen int64) {
	defer close(w.done)
	defer func() {
		w.cmu.Lock()
		defer w.cmu.Unlock()
		w.c.Close()
	}()
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		}
		v, err := w.dataVersion()
		if err == nil && v == seen {
			continue
		}
		seen = v
		w.look()
	}
}

// look reads each watched session's listing row and counts a change for those that moved.
func (w *watcher) look() {
	w.watched.Look(func(id string, last seenRow) (seenRow, bool) {
		now := w.listingRow(id)
		return now, now.row != last.row || last.recent || now.row == ""
	})
}

// listingRow is what a commit to session id changes of its row in sessions, as one string
// ("" when it cannot be read), and whether the row was updated within the last
// millisecond. last_accessed_at is left out: a watcher that reads a session may move it.
func (w *watcher) listingRow(id string) seenRow {
	var row string
	var recent bool
	w.cmu.Lock()
	defer w.cmu.Unlock()
	err := w.c.Query(`SELECT updated_at, message_count, status, title, archived_at, last_message_at,
		input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, corruption
		FROM sessions WHERE id = ?`, []any{id}, func(r []driver.Value) error {
		row = fmt.Sprint(r)
		if at, ok := r[0].(int64); ok {
			recent = time.Now().UnixMilli()-at <= 1
		}
		return nil
	})
	if err != nil {
		return seenRow{}
	}
	return seenRow{row: row, recent: recent}
}

// dataVersion is SQLite's data_version of the watcher's connection.
func (w *watcher) dataVersion() (int64, error) {
	w.cmu.Lock()
	defer w.cmu.Unlock()
	return dataVersion(w.c)
}

// dataVersion is SQLite's data_version of connection c: it changes when any other
// connection commits to the database.
func dataVersion(c *sqlconn.Conn) (int64, error) {
	var v int64
	err := c.Query("PRAGMA data_version", nil, func(r []driver.Value) error {
		v, _ = r[0].(int64)
		return nil
	})
	return v, err
}
