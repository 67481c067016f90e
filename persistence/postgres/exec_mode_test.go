package postgres

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// TestStoreContractBehindPgBouncer runs the contract with the statement modes a pooler in
// transaction mode (PgBouncer's pool_mode=transaction) needs: no statement prepared on one
// server connection and used on another. exec sends each statement with its parameters
// unnamed (Parse/Bind/Execute in one round trip); simple_protocol sends the text with the
// values quoted in it. Both are set by the URL's default_query_exec_mode.
func TestStoreContractBehindPgBouncer(t *testing.T) {
	for _, mode := range []string{"exec", "simple_protocol"} {
		t.Run(mode, func(t *testing.T) {
			sessiontest.StoreContract(t, sessiontest.Backend{
				Fresh: func(t *testing.T) string { return withParam(t, freshURL(t), "default_query_exec_mode", mode) },
				Open:  func(t *testing.T, url string) session.Store { return openAt(t, url) },
			})
		})
	}
}
