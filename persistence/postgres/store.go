package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sessionkeep/sessionkeep/persistence/contextcache"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/hosted"
	"github.com/sessionkeep/sessionkeep/session/importing"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Store is the PostgreSQL implementation of session.Store: one schema of one database.
type Store struct {
	// Reads are the context cache's reads (contextbuild.CacheStore, FirstUncounted).
	contextcache.Reads
	pool    *pgxpool.Pool
	schema  string
	channel string // the NOTIFY channel of this store's commits
	w       *writer
	indexer *searchIndexer
	warm    *warmUp // started once the open has succeeded

	mu      sync.Mutex
	closed  bool
	reads   int      // reads running on the pool; the last one to end after Close closes it
	watcher *watcher // started by the first Watch

	recovered []RecoveredSession
}

// Store implements each of the session package's store interfaces, and so their composition.
var (
	_ session.MessageLog   = (*Store)(nil)
	_ session.Store        = (*Store)(nil)
	_ session.RecordSyncer = (*Store)(nil)
)

// The stores of the packages beside session, which a Store implements on the same value.
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

// defaultConnectTimeout bounds a connection attempt when the URL sets no connect_timeout,
// so that a server that does not answer is an error and not a hang.
const defaultConnectTimeout = 10 * time.Second

// IsURL reports whether name is a PostgreSQL connection URL rather than a SQLite path.
func IsURL(name string) bool {
	return strings.HasPrefix(name, "postgres://") || strings.HasPrefix(name, "postgresql://")
}

// Open opens the store at a postgres:// URL: a pool with the URL's settings (pgxpool's
// pool_max_conns, pool_min_conns, pool_max_conn_lifetime, pool_max_conn_idle_time and
// libpq's connect_timeout), the schema its search_path names created and migrated when
// needed, sessions left open by writers that are gone marked interrupted, and the messages of
// a store written before migration 4 moved into bodies (settleBodies, once). It returns
// before the pool's connections are readied for the first reads, in the background (warmUp).
func Open(url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's error shows the URL with its password masked.
		return nil, fmt.Errorf("%w: not a PostgreSQL URL pgx can read: %v", session.ErrInvalidArgument, err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = defaultConnectTimeout
	}
	schema := firstSchema(cfg.ConnConfig.RuntimeParams["search_path"])
	ctx := context.Background()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, storageError("connecting to "+redactURL(url, cfg), err)
	}
	if err := migrate(ctx, pool, schema); err != nil {
		pool.Close()
		return nil, err
	}
	s := &Store{pool: pool, schema: schema, channel: channelName(schema), indexer: startSearchIndexer(pool)}
	// The open, its warm-up and openQuiet after it are a read the indexer yields to: a
	// slice begun then would take a warm connection and the server's CPU from the app's
	// first reads, which come right after.
	s.indexer.readBegins()
	s.Reads = contextcache.Reads{Session: s.cacheSession}
	if s.w, err = newWriter(ctx, cfg, s.channel, s.indexer); err != nil {
		s.indexer.close()
		pool.Close()
		return nil, err
	}
	if s.recovered, err = markInterrupted(conn{pool, ctx}); err != nil {
		s.Close()
		return nil, err
	}
	if err := settleBodies(ctx, pool, settleBatch); err != nil {
		s.Close()
		return nil, err
	}
	if err := narrowSearchIndex(ctx, pool); err != nil {
		s.Close()
		return nil, err
	}
	s.reads++ // the warm-up's, ended by it (no one else has s yet)
	s.warm = startWarmUp(pool, func() {
		time.AfterFunc(openQuiet, s.indexer.readEnds)
		s.endRead()
	})
	return s, nil
}

// firstSchema is the schema a search_path names first (where tables are created), public
// when it names none.
func firstSchema(searchPath string) string {
	first, _, _ := strings.Cut(searchPath, ",")
	first = strings.Trim(strings.TrimSpace(first), `"`)
	if first == "" || first == "$user" {
		return "public"
	}
	return first
}

// channelName is the NOTIFY channel of the store in schema: an identifier, so at most 63
// bytes.
func channelName(schema string) string {
	name := "sessionkeep_" + schema
	if len(name) > 63 {
		name = name[:63]
	}
	return name
}

// redactURL is url, which pgx has read as cfg, without its password, for error messages.
func redactURL(url string, cfg *pgxpool.Config) string {
	if cfg.ConnConfig.Password == "" {
		return url
	}
	return strings.Replace(url, cfg.ConnConfig.Password, "****", 1)
}

// Recovered returns the sessions that opening the store found left open by a writer that
// is gone, and marked interrupted.
func (s *Store) Recovered() []RecoveredSession { return s.recovered }

// Apply queues ops for the writer; it never waits on the network.
func (s *Store) Apply(ops ...session.Op) { s.w.enqueue(ops) }

// Sync waits until every Op queued so far is committed.
func (s *Store) Sync() error { return s.w.sync() }

// Flush waits until every Op queued so far is durable: committed, since PostgreSQL makes a
// commit durable before it returns.
func (s *Store) Flush() error { return s.w.flush() }

// TakeWriteError returns why queued writes are failing to commit, the first time it is
// asked during a run of failures; nil after that, and while commits succeed.
func (s *Store) TakeWriteError() error { return s.w.takeError() }

// IndexForSearch waits until every block committed so far, by any host, is indexed for
// search. A bulk import calls it, so that the first search after it does not pay for the
// whole import.
func (s *Store) IndexForSearch() error {
	return s.readIndexing(indexPending)
}

// Close commits what is queued and closes the writer's connection and the pool, and
// cancels the open's warm-up if it still runs. Closing twice is a no-op. It does not wait
// for reads running: a streamed read may be waiting for the very JavaScript thread that
// calls Close to take its next part, and pgxpool's Close waits for every connection to come
// back; the last read (or the warm-up) closes the pool instead, as SQLite's readers close
// their own connections.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	watching := s.watcher
	idle := s.reads == 0
	s.mu.Unlock()
	if watching != nil {
		watching.stop()
	}
	if s.warm != nil {
		s.warm.stop()
	}
	err := s.w.close()
	s.indexer.close()
	if idle {
		s.pool.Close()
	}
	return err
}

// read runs fn on the pool, unless the store is closed; the background search indexer
// yields to it.
func (s *Store) read(fn func(c conn) error) error {
	s.indexer.readBegins()
	defer s.indexer.readEnds()
	return s.readIndexing(fn)
}

// readIndexing is read for indexing messages for search, which the background indexer
// does not yield to but helps with, as a second connection. A read waits for the open's
// warm-up to end.
func (s *Store) readIndexing(fn func(c conn) error) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return session.ErrStoreClosed
	}
	s.reads++
	s.mu.Unlock()
	defer s.endRead()
	s.warm.wait()
	return fn(conn{s.pool, context.Background()})
}

// endRead counts a read out, and closes the pool when it was the last of a closed store.
func (s *Store) endRead() {
	s.mu.Lock()
	s.reads--
	last := s.closed && s.reads == 0
	s.mu.Unlock()
	if last {
		s.pool.Close()
	}
}

// readSession runs fn with the database key of a session.
func (s *Store) readSession(sessionID, what string, fn func(c conn, sid int64) error) error {
	return s.read(func(c conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		return storageError(what+" of session "+sessionID, fn(c, sid))
	})
}

// readByID runs fn, a read that finds the session's key itself and reports whether the
// session exists, turning a missing session into ErrSessionNotFound.
func (s *Store) readByID(sessionID, what string, fn func(c conn) (found bool, err error)) error {
	return s.read(func(c conn) error {
		found, err := fn(c)
		if err == nil && !found {
			return notFound(sessionID, errUnknownSession)
		}
		return storageError(what+" of session "+sessionID, err)
	})
}

// errUnknownSession is an Op or a read for a session the database does not hold.
var errUnknownSession = errors.New("no such session in the database")

// lookupSID finds the database key of the session with id.
func lookupSID(c conn, id string) (int64, error) {
	sid := int64(-1)
	err := c.query(`SELECT sid FROM sessions WHERE id = $1`, []any{id}, func(row []any) error {
		sid = row[0].(int64)
		return nil
	})
	if err == nil && sid < 0 {
		err = fmt.Errorf("%w: %s", errUnknownSession, id)
	}
	return sid, err
}

// notFound turns a failed session lookup into ErrSessionNotFound when the session is
// missing, and a storage error otherwise.
func notFound(id string, err error) error {
	if errors.Is(err, errUnknownSession) {
		return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
	}
	return storageError("finding session "+id, err)
}
