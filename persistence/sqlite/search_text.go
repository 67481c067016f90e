package sqlite

import (
	"database/sql/driver"

	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/searchtext"
	"modernc.org/sqlite"
)

// searched_text(body) gives the text a message body is searched by (body_search, through
// the view body_search_text): searchtext.OfBody, whose rule blockText's SQL follows for
// block rows. It is computed in Go because SQLite's JSON functions, which the view used
// before migration 13, parsed every body once to validate it, again to walk its content,
// and each block again per field: on the real transcripts that was a third of indexing an
// import. The index is external content: FTS5 deletes a row by the text the view gives for
// it then, so a change to what OfBody returns needs a migration that re-indexes the bodies
// (as searchTextMigration does).

// searchedTextSQL is searched_text(body) in SQL: NULL for a NULL body or one without text.
func searchedTextSQL(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	text := searchtext.OfBody(rowvalue.Bytes(args[0]))
	if len(text) == 0 {
		return nil, nil
	}
	return string(text), nil
}

// init gives the store's connections searched_text, beside unpack_body.
func init() {
	if err := storeDriver.RegisterDeterministicScalarFunction("searched_text", 1, searchedTextSQL); err != nil {
		panic(err) // only a second registration of the same name fails
	}
}
