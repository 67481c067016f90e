package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/persistence/watchset"
	"github.com/sessionkeep/sessionkeep/session"
)

// watchReconnectDelay is how long the listener waits before connecting again after its
// connection was lost.
const watchReconnectDelay = 200 * time.Millisecond

// watcher follows the store's NOTIFY channel on a connection of its own, started by the
// first Watch, and counts, for each watched session, the commits other writers (and this
// one) made to it. A caller compares counts to learn that a session changed, without
// reading the database.
type watcher struct {
	cfg     *pgx.ConnConfig
	channel string
	cancel  context.CancelFunc
	done    chan struct{}
	watched *watchset.Set[struct{}]
}

// Watch starts following session id (once per caller: Unwatch ends it) and returns its
// commit count so far; WatchVersion then tells whether it moved. The first Watch of a store
// returns once its listener listens, so that no commit made after Watch returns is missed.
func (s *Store) Watch(id string) (uint64, error) {
	s.mu.Lock()
	w, closed := s.watcher, s.closed
	s.mu.Unlock()
	if closed {
		return 0, session.ErrStoreClosed
	}
	if w == nil {
		started, err := startWatcher(s.pool.Config().ConnConfig.Copy(), s.channel)
		if err != nil {
			return 0, err
		}
		s.mu.Lock()
		if s.watcher == nil && !s.closed {
			s.watcher, started = started, nil
		}
		w, closed = s.watcher, s.closed
		s.mu.Unlock()
		if started != nil {
			started.stop() // another Watch started one first, or the store closed meanwhile
		}
		if closed {
			return 0, session.ErrStoreClosed
		}
	}
	return w.watched.Add(id, func() struct{} { return struct{}{} }), nil
}

// WatchVersion returns the commit count of a watched session: it grows after each commit
// that wrote to it, from any process on any host; 0 for a session not watched. Once the
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

// startWatcher connects and listens, then follows the channel on a goroutine.
func startWatcher(cfg *pgx.ConnConfig, channel string) (*watcher, error) {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{cfg: cfg, channel: channel, cancel: cancel, done: make(chan struct{}), watched: watchset.New[struct{}]()}
	c, err := w.connect(ctx)
	if err != nil {
		cancel()
		return nil, storageError("listening for commits", err)
	}
	go w.run(ctx, c)
	return w, nil
}

// connect opens a connection that listens on the channel, and holds the lock that tells
// writers someone listens (notify.go).
func (w *watcher) connect(ctx context.Context) (*pgx.Conn, error) {
	c, err := pgx.ConnectConfig(ctx, w.cfg)
	if err != nil {
		return nil, err
	}
	if _, err := c.Exec(ctx, `LISTEN `+pgx.Identifier{w.channel}.Sanitize()); err != nil {
		c.Close(context.Background())
		return nil, err
	}
	if _, err := c.Exec(ctx, listenerSQL, w.channel); err != nil {
		c.Close(context.Background())
		return nil, err
	}
	return c, nil
}

// run listens on c until it fails, then connects again, until stopped. Notifications sent
// while it was disconnected are lost, so every watched session counts as changed once it
// listens again: a watcher re-reads rather than miss a write.
func (w *watcher) run(ctx context.Context, c *pgx.Conn) {
	defer close(w.done)
	for {
		w.listen(ctx, c)
		c.Close(context.Background())
		for c = nil; c == nil; {
			select {
			case <-ctx.Done():
				return
			case <-time.After(watchReconnectDelay):
			}
			c, _ = w.connect(ctx)
		}
		w.bumpAll()
	}
}

// listen counts notifications until the connection fails or the watcher stops.
func (w *watcher) listen(ctx context.Context, c *pgx.Conn) {
	for {
		n, err := c.WaitForNotification(ctx)
		if err != nil {
			return
		}
		w.watched.Changed(n.Payload)
	}
}

// bumpAll counts a change of every watched session.
func (w *watcher) bumpAll() {
	w.watched.Look(func(string, struct{}) (struct{}, bool) { return struct{}{}, true })
}

// stop ends the listener and waits for its connection to close.
func (w *watcher) stop() {
	w.cancel()
	<-w.done
}
