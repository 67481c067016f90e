package sqlconn

import (
	"database/sql/driver"

	"modernc.org/sqlite"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/searchtext"
)

// Function is a deterministic SQL function of one argument, as the driver calls it.
type Function = func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error)

// Functions are the SQL functions the schema's statements call, by name, which every
// connection Open opens has: a connection opened apart from the store (a test's, through
// database/sql) is given them by registering these.
func Functions() map[string]Function {
	return map[string]Function{"unpack_body": unpackBodySQL, "searched_text": searchedTextSQL}
}

// storeDriver opens the store's connections, with Functions.
var storeDriver = func() *sqlite.Driver {
	d := &sqlite.Driver{}
	for name, fn := range Functions() {
		if err := d.RegisterDeterministicScalarFunction(name, 1, fn); err != nil {
			panic(err) // only a second registration of the same name fails
		}
	}
	return d
}()

// unpackBodySQL is unpack_body(x), bodycodec.Unpack in SQL (a message body's stored form,
// plain, packed with s2 or with a dictionary, is persistence/bodycodec's): NULL stays NULL.
func unpackBodySQL(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	stored := rowvalue.Bytes(args[0])
	if stored == nil {
		return args[0], nil
	}
	return bodycodec.Unpack(nil, stored)
}

// searchedTextSQL is searched_text(body): the text a message body is searched by
// (body_search, through the view body_search_text), searchtext.OfBody, whose rule the SQL
// of block rows' search follows; NULL for a NULL body or one without text. It is computed
// in Go because SQLite's JSON functions, which the view used before migration 13, parsed
// every body once to validate it, again to walk its content, and each block again per
// field: on the real transcripts that was a third of indexing an import. The index is
// external content: FTS5 deletes a row by the text the view gives for it then, so a change
// to what OfBody returns needs a migration that re-indexes the bodies (as migration 13 did).
func searchedTextSQL(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	text := searchtext.OfBody(rowvalue.Bytes(args[0]))
	if len(text) == 0 {
		return nil, nil
	}
	return string(text), nil
}
