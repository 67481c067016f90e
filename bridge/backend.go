package bridge

import (
	"github.com/sessionkeep/sessionkeep/persistence/postgres"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// backend is an open store of either storage backend, as the bridge holds it: the store
// interfaces session.Manager and the packages beside it use, and what the bridge asks of
// the store itself.
type backend interface {
	session.Store
	tokens.Store
	Flush() error
	TakeWriteError() error
	IndexForSearch() error
	// RecoveredSessions is what opening the store marked interrupted, never nil, for JSON.
	RecoveredSessions() any
}

// openBackend opens the store name names: PostgreSQL for a postgres:// URL, else SQLite.
func openBackend(name string) (backend, error) {
	if postgres.IsURL(name) {
		s, err := postgres.Open(name)
		if err != nil {
			return nil, err
		}
		return postgresBackend{s}, nil
	}
	s, err := sqlite.Open(name)
	if err != nil {
		return nil, err
	}
	return sqliteBackend{s}, nil
}

// sqliteBackend and postgresBackend give each store's list of recovered sessions the one
// shape the bridge hands to JavaScript.
type sqliteBackend struct{ *sqlite.Store }

func (b sqliteBackend) RecoveredSessions() any {
	if r := b.Recovered(); r != nil {
		return r
	}
	return []sqlite.RecoveredSession{}
}

type postgresBackend struct{ *postgres.Store }

func (b postgresBackend) RecoveredSessions() any { return b.Recovered() }
