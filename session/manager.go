package session

import (
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Manager opens the sessions of one Store and makes sure each session has one live
// Session in the process, however often it is opened.
type Manager struct {
	store    Store
	now      func() time.Time
	counter  TokenCounter // nil: a context build counts what is missing
	redactor Redactor     // storeAsIs when the Manager does not redact

	mu     sync.Mutex
	live   map[string]*Session
	closed bool
}

// NewManager returns a Manager over store.
func NewManager(store Store) *Manager {
	return &Manager{store: store, now: time.Now, redactor: storeAsIs{}, live: map[string]*Session{}}
}

// Redact makes the Manager replace secrets in tool inputs and outputs with r before they
// are stored (nil: never; a nil *redact.Redactor in r is not nil, so pass redact.New's
// result only when it is not nil). Set it before the first session is opened.
func (m *Manager) Redact(r Redactor) {
	if r == nil {
		r = storeAsIs{}
	}
	m.redactor = r
}

// CountTokens makes the Manager hand every message that ends to c, which counts its
// tokens off the caller's thread (nil: none are, and a context build counts what is
// missing). Set it before the first session is opened; Close closes c.
func (m *Manager) CountTokens(c TokenCounter) { m.counter = c }

// CreateOptions describe a new session.
type CreateOptions struct {
	ProjectPath   string `json:"projectPath"`
	Title         string `json:"title"`
	Provider      string `json:"provider"`
	Model         string `json:"model"`
	ContextWindow int64  `json:"contextWindow"`
}

// Create starts a new, empty session.
func (m *Manager) Create(opts CreateOptions) (*Session, error) { return m.create(opts, "") }

// create starts a new, empty session, addressed by a hosted agent's key when key is set.
func (m *Manager) create(opts CreateOptions, key string) (*Session, error) {
	if opts.ContextWindow < 0 {
		return nil, fmt.Errorf("%w: contextWindow must not be negative", ErrInvalidArgument)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrStoreClosed
	}
	now := m.now().UTC()
	info := SessionInfo{
		ID:            uuid.Must(uuid.NewV7()).String(),
		ProjectPath:   opts.ProjectPath,
		Title:         opts.Title,
		Provider:      opts.Provider,
		Model:         opts.Model,
		ContextWindow: opts.ContextWindow,
		CreatedAt:     now,
		UpdatedAt:     now,
		Status:        StatusActive,
		Key:           key,
	}
	m.store.Apply(CreateSession{Info: info})
	s := newSession(m, SessionState{Info: info})
	s.accessed = true
	m.live[info.ID] = s
	return s, nil
}

// Open returns the live Session of id, loading it from the store when it is not open yet,
// and records the access.
func (m *Manager) Open(id string) (*Session, error) {
	s, err := m.acquire(id)
	if err == nil {
		s.mu.Lock()
		s.accessed = true
		s.mu.Unlock()
		m.store.Apply(AccessSession{SessionID: id, At: m.now().UTC()})
	}
	return s, err
}

// acquire returns the live Session of id, loading it from the store when it is not open
// yet, without counting as an access (an import or export is not someone opening it).
func (m *Manager) acquire(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrStoreClosed
	}
	if s, ok := m.live[id]; ok {
		s.mu.Lock()
		s.refs++
		s.mu.Unlock()
		return s, nil
	}
	if err := m.syncForLoad(); err != nil {
		return nil, err
	}
	s, err := m.loadResumed(id)
	if err != nil {
		return nil, err
	}
	m.live[id] = s
	return s, nil
}

// Close closes every live session (an unfinished message is marked interrupted), then
// flushes and closes the store. Closing twice is a no-op.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	live := m.live
	m.live = map[string]*Session{}
	m.mu.Unlock()
	for _, s := range live {
		s.shutdown(true)
	}
	if m.counter != nil {
		m.counter.Close()
	}
	return m.store.Close()
}

func (m *Manager) usable() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrStoreClosed
	}
	return nil
}

// release drops one user of s. The last one shuts s down, under the manager's lock, so
// that an Open at the same time either shares s before that or loads it afresh after.
func (m *Manager) release(s *Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s.mu.Lock()
	if s.closed || s.refs == 0 {
		s.mu.Unlock()
		return
	}
	s.refs--
	last := s.refs == 0
	s.mu.Unlock()
	if !last {
		return
	}
	s.shutdown(false)
	if m.counter != nil {
		m.counter.Forget(s.id)
	}
	if m.live[s.id] == s {
		delete(m.live, s.id)
	}
}
