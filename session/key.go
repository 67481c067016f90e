package session

import (
	"fmt"
)

// ByKey returns the live Session of a hosted agent's key. When no session has the key it
// creates one from opts if create is set, and returns nil otherwise.
func (m *Manager) ByKey(key string, create bool, opts CreateOptions) (*Session, error) {
	if err := m.usable(); err != nil {
		return nil, err
	}
	if err := m.store.Sync(); err != nil {
		return nil, err
	}
	id, err := m.store.SessionIDByKey(key)
	if err != nil {
		return nil, err
	}
	if id != "" {
		return m.Open(id)
	}
	if !create {
		return nil, nil
	}
	return m.createKeyed(key, opts)
}

// createKeyed creates the session of key. Another process may create it at the same time:
// the database lets one of them have the key, and the loser opens the winner's session.
func (m *Manager) createKeyed(key string, opts CreateOptions) (*Session, error) {
	s, err := m.create(opts, key)
	if err != nil {
		return nil, err
	}
	if err := m.store.Sync(); err != nil {
		return nil, err
	}
	id, err := m.store.SessionIDByKey(key)
	if err != nil || id == s.id {
		return s, err
	}
	m.abandon(s)
	if id == "" {
		return nil, fmt.Errorf("%w: the session of key %q was deleted while it was being created", ErrSessionNotFound, key)
	}
	return m.Open(id)
}

// abandon drops a session whose creation did not happen (another process took its key),
// without writing anything for it.
func (m *Manager) abandon(s *Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	if m.live[s.id] == s {
		delete(m.live, s.id)
	}
}
