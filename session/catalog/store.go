package catalog

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// Store is what the catalogue needs of a store: its listing, its full-text index and the
// usage its messages report. A backend implements it beside session.Store, on the same
// value.
type Store interface {
	Listing
	Searcher
	UsageLog
}

// ready returns the store of m as the catalogue reads it, once everything recorded through
// m can be read from it: ErrStoreClosed once m is closed, and errors.ErrUnsupported for a
// backend that keeps no catalogue (the SQLite one checks at compile time that it does).
func ready(m *session.Manager) (Store, error) {
	if err := m.Sync(); err != nil {
		return nil, err
	}
	st, ok := m.Store().(Store)
	if !ok {
		return nil, fmt.Errorf("%w: the store keeps no catalogue of its sessions", errors.ErrUnsupported)
	}
	return st, nil
}

// readyToPrice returns the store of m as ready does, once prices are known to be valid.
func readyToPrice(m *session.Manager, prices Prices) (Store, error) {
	if err := prices.Validate(); err != nil {
		return nil, err
	}
	return ready(m)
}
