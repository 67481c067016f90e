package postgres

import "strings"

// setting is a server setting and the value a transaction gives it.
type setting struct{ name, value string }

// forTransaction is the statement, first in a batch, that gives each setting its value for
// the rest of the batch's transaction (set_config's is_local), its row ignored. The names
// and values are the code's own constants, never a caller's.
func forTransaction(settings ...setting) batchQuery {
	calls := make([]string, len(settings))
	for i, s := range settings {
		calls[i] = "set_config('" + s.name + "', '" + s.value + "', true)"
	}
	return batchQuery{sql: "SELECT " + strings.Join(calls, ", "), fn: func([]any) error { return nil }}
}
