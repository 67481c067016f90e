package sessiontest

import (
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Env is one open store with its Manager, over a database file in t.TempDir().
type Env struct {
	Path  string
	Store *sqlite.Store
	Mgr   *session.Manager
}

// NewEnv opens a fresh store in a temporary directory.
func NewEnv(t testing.TB) *Env {
	t.Helper()
	return OpenEnv(t, filepath.Join(t.TempDir(), "sessions.db"))
}

// OpenEnv opens the store at path; the Manager (and so the store) is closed at cleanup.
func OpenEnv(t testing.TB, path string) *Env {
	t.Helper()
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatalf("sqlite.Open(%s): %v", path, err)
	}
	m := session.NewManager(st)
	m.CountTokens(tokens.NewCounter(st))
	t.Cleanup(func() { m.Close() })
	return &Env{Path: path, Store: st, Mgr: m}
}

// Reopen closes the Manager and its store, as a process exit would, and opens the same
// file again.
func (e *Env) Reopen(t testing.TB) *Env {
	t.Helper()
	if err := e.Mgr.Close(); err != nil {
		t.Fatalf("Manager.Close: %v", err)
	}
	return OpenEnv(t, e.Path)
}

// Create creates an empty Anthropic session in /proj.
func (e *Env) Create(t testing.TB) *session.Session {
	t.Helper()
	s, err := e.Mgr.Create(session.CreateOptions{ProjectPath: "/proj", Provider: "anthropic", Model: "claude-test"})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return s
}

// Open opens the session id.
func (e *Env) Open(t testing.TB, id string) *session.Session {
	t.Helper()
	s, err := e.Mgr.Open(id)
	if err != nil {
		t.Fatalf("Open(%s): %v", id, err)
	}
	return s
}
