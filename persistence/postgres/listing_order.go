package postgres

import (
	"github.com/sessionkeep/sessionkeep/persistence/infocolumns"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// readInIndexOrder is the setting, for the rest of its transaction, that has the planner read
// a listing in the order of the index that serves it rather than scan the table and sort.
// The planner costs 1,000 rows read through the index as random reads of their pages and
// prefers a scan of the whole table and a sort, which measured 2-4 times slower than the
// index (bench/README.md, issue 30 round 5: 1.6-2.4 against 0.45-0.7 ms on a table of 59
// pages, 2.4-2.8 against 0.7-1.1 ms on the shared bench's W4 store). The writer makes it
// worse: it updates a session's row at every commit, and a version another transaction may
// still see cannot be pruned from its page, so the table keeps a few live rows a page (the
// W4 store: 1,000 sessions in 373 pages), all of which the scan reads. With a small LIMIT the
// planner takes the index by itself; the setting changes nothing then.
//
// It also has the listing run the prepared statement's generic plan every time. With a
// project's sessions in the thousands, the generic plan's cost (its LIMIT $n counted as a
// tenth of the project's rows) is above a custom plan's, so the server planned the listing
// afresh at every call: 0.05 ms a call, and a listing of 25,000 sessions in 20 projects
// 1.15x that of 1,000, where the generic plan was already taken (bench/README.md, issue 30
// round 8, r42grow). The generic plan is the same index read: the project is its index's
// first column, the others are read in the index's order.
var readInIndexOrder = forTransaction(setting{"enable_sort", "off"}, genericPlan)

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
	return c.queryBatch(readInIndexOrder, batchQuery{sql: query, args: args, fn: rows})
}
