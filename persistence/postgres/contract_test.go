package postgres

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// TestStoreContract runs the contract every backend keeps, with a Store per process (a pool
// of its own) on one schema.
func TestStoreContract(t *testing.T) {
	sessiontest.StoreContract(t, sessiontest.Backend{
		Fresh: func(t *testing.T) string { return freshURL(t) },
		Open:  func(t *testing.T, url string) session.Store { return openAt(t, url) },
	})
}
