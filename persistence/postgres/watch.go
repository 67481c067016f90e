package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
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

	mu      sync.Mutex
	watched map[string]*watch
}

// watch is one watched session: how many watch it, and its commit count.
type watch struct {
	refs    int
	version uint64
}

// Watch starts following session id (once per caller: Unwatch ends it) and returns its
// commit count so far; WatchVersion then tells whether it moved.
func (s *Store) Watch(id string) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, session.ErrStoreClosed
	}
	if s.watcher == nil {
		cfg := s.pool.Config().ConnConfig.Copy()
		s.watcher = startWatcher(cfg, s.channel)
	}
	return s.watcher.add(id), nil
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
	w.mu.Lock()
	defer w.mu.Unlock()
	if ws := w.watched[id]; ws != nil {
		return ws.version, nil
	}
	return 0, nil
}

// Unwatch ends one Watch of session id.
func (s *Store) Unwatch(id string) {
	s.mu.Lock()
	w := s.watcher
	s.mu.Unlock()
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if ws := w.watched[id]; ws != nil {
		if ws.refs--; ws.refs <= 0 {
			delete(w.watched, id)
		}
	}
}

func startWatcher(cfg *pgx.ConnConfig, channel string) *watcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{cfg: cfg, channel: channel, cancel: cancel, done: make(chan struct{}), watched: map[string]*watch{}}
	go w.run(ctx)
	return w
}

func (w *watcher) add(id string) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	ws := w.watched[id]
	if ws == nil {
		ws = &watch{}
		w.watched[id] = ws
	}
	ws.refs++
	return ws.version
}

// run listens until stopped, connecting again after a lost connection. Notifications sent
// while it was disconnected are lost, so every watched session counts as changed once it
// listens again: a watcher re-reads rather than miss a write.
func (w *watcher) run(ctx context.Context) {
	defer close(w.done)
	for first := true; ctx.Err() == nil; first = false {
		c, err := pgx.ConnectConfig(ctx, w.cfg)
		if err == nil {
			_, err = c.Exec(ctx, `LISTEN `+pgx.Identifier{w.channel}.Sanitize())
		}
		if err == nil {
			if !first {
				w.bumpAll()
			}
			w.listen(ctx, c)
		}
		if c != nil {
			c.Close(context.Background())
		}
		select {
		case <-ctx.Done():
		case <-time.After(watchReconnectDelay):
		}
	}
}

// listen counts notifications until the connection fails or the watcher stops.
func (w *watcher) listen(ctx context.Context, c *pgx.Conn) {
	for {
		n, err := c.WaitForNotification(ctx)
		if err != nil {
			return
		}
		w.mu.Lock()
		if ws := w.watched[n.Payload]; ws != nil {
			ws.version++
		}
		w.mu.Unlock()
	}
}

func (w *watcher) bumpAll() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ws := range w.watched {
		ws.version++
	}
}

// stop ends the listener and waits for its connection to close.
func (w *watcher) stop() {
	w.cancel()
	<-w.done
}
