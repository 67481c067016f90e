package bridge

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// verifyAsync(store, optionsJSON) -> Promise<string>: the store checked as a whole, off the
// JS thread (it reads every row), and with {repair: true} its indexes and counts rebuilt
// first; the report as JSON (persistence/sqlite's VerifyReport).
func init() {
	native.Register("verifyAsync", storeQuery(verify, true))
}

type verifyOptions struct {
	Repair bool `json:"repair"`
}

func verify(h *storeHandle, o verifyOptions) (any, error) {
	b, ok := h.store.(sqliteBackend)
	if !ok {
		return nil, fmt.Errorf("%w: verify checks a SQLite store; a PostgreSQL server checks its own tables (amcheck)", session.ErrInvalidArgument)
	}
	return b.Verify(o.Repair)
}
