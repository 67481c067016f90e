package postgres

import (
	"github.com/sessionkeep/sessionkeep/persistence/infocolumns"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// readInIndexOrder is the setting, for the rest of its transaction, that has the planner read
// a listing in the order of the index that serves it rather than scan the table and sort.
// The writer updates a session's row at every commit, and a version that another
// transaction may still see cannot be pruned from its page, so the table holds every
// version written while such a transaction ran: on the shared bench's W4 store, 1,000
// sessions spread over 373 pages, about three to a page. The planner costs the table by its
// pages and a scan of 1,000 rows through the index as 1,000 random reads, so it chooses to
// scan the whole table and sort; through the index the listing reads only the pages its
// rows are on, in order (bench/README.md, issue 30 round 5: 0.6-2.4 ms against 8-24 ms).
// With LIMIT the planner takes the index by itself; the setting changes nothing then.
const readInIndexOrder = `SELECT set_config('enable_sort', 'off', true)`

// orderServedByIndex reports whether an index holds filter's sessions in the listing's
// order: sessions_listed those not archived, sessions_by_project those of a project. A
// listing of every session of every project has none, and is scanned and sorted: disabling
// the sort there would only make its cost look too high (past jit_above_cost, and the
// server would compile it).
func orderServedByIndex(filter catalog.ListFilter) bool {
	return filter.ProjectPath != "" || !filter.IncludeArchived
}

// eachListing calls each with the rows of filter's listing, in order, in one round trip,
// read in the order of the index that serves it when one does.
func eachListing(c conn, filter catalog.ListFilter, each func(sel infocolumns.Selection, row []any) error) error {
	sel, query, args := infocolumns.Listing(filter)
	rows := func(row []any) error { return each(sel, row) }
	query = numbered(query)
	if !orderServedByIndex(filter) {
		return c.query(query, args, rows)
	}
	return c.queryBatch(batchQuery{sql: readInIndexOrder, fn: func([]any) error { return nil }},
		batchQuery{sql: query, args: args, fn: rows})
}
