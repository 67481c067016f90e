// Package watchset keeps a store's watched sessions for session.watch(): how many callers
// watch each one and its change count, which a backend's follower moves when it learns of a
// commit (SQLite's data_version, PostgreSQL's NOTIFY) and a caller compares to learn that
// the session changed without reading it. Both backends keep it the same way; only how they
// learn of a commit differs.
package watchset

import "sync"

// Set is the watched sessions of one store, each with state S of the backend's own (what
// SQLite last saw of the session's row; nothing for PostgreSQL). Its methods may be called
// from any goroutine.
type Set[S any] struct {
	mu      sync.Mutex
	watched map[string]*watch[S]
}

// watch is one watched session: how many watch it, its change count and the backend's state.
type watch[S any] struct {
	refs    int
	version uint64
	state   S
}

// New returns an empty Set.
func New[S any]() *Set[S] {
	return &Set[S]{watched: map[string]*watch[S]{}}
}

// Add counts one more watcher of session id and returns its change count so far; a session
// not yet watched starts with the state first returns, at count 0.
func (s *Set[S]) Add(id string, first func() S) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.watched[id]
	if w == nil {
		w = &watch[S]{state: first()}
		s.watched[id] = w
	}
	w.refs++
	return w.version
}

// Remove ends one watcher of session id: the last one forgets the session.
func (s *Set[S]) Remove(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.watched[id]; w != nil {
		if w.refs--; w.refs <= 0 {
			delete(s.watched, id)
		}
	}
}

// Version returns the change count of session id; 0 for a session not watched.
func (s *Set[S]) Version(id string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.watched[id]; w != nil {
		return w.version
	}
	return 0
}

// Changed counts a change of session id, when it is watched.
func (s *Set[S]) Changed(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.watched[id]; w != nil {
		w.version++
	}
}

// Look calls look with each watched session's id and state, keeps the state it returns, and
// counts a change for each session it says changed. It holds the Set's lock throughout, so
// a session added meanwhile is looked at from its next call on.
func (s *Set[S]) Look(look func(id string, state S) (S, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, w := range s.watched {
		var changed bool
		if w.state, changed = look(id, w.state); changed {
			w.version++
		}
	}
}
