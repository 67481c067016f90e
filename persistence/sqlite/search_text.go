package sqlite

import (
	"database/sql/driver"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/persistence/searchtext"
	"modernc.org/sqlite"
)

// searchedText returns the text a message body is searched by (body_search, through the
// view body_search_text), nil when it has none: the searched text of each of the body's
// content blocks (persistence/searchtext's rule, which blockText's SQL follows for block
// rows), joined by spaces. A body that is not JSON, packed or plain, has no text.
//
// It is computed in Go because SQLite's JSON functions, which the view used before
// migration 13, parsed every body once to validate it, again to walk its content, and each
// block again per field: on the real transcripts that was a third of indexing an import.
//
// The index is external content: FTS5 deletes a row by the text the view gives for it
// then, so searchedText must give the same text for the same body for as long as the
// index holds it. A change to what it returns needs a migration that re-indexes the bodies
// (as searchTextMigration does).
func searchedText(stored []byte) []byte {
	body, err := bodycodec.Unpack(nil, stored)
	if err != nil {
		return nil
	}
	var b struct {
		Message struct {
			Content []searchtext.Block `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(body, &b) != nil {
		return nil
	}
	var text []byte
	for i := range b.Message.Content {
		text = b.Message.Content[i].AppendText(text)
	}
	return text
}

// searchedTextSQL is searched_text(body) in SQL: NULL for a NULL body or one without text.
func searchedTextSQL(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	text := searchedText(asBytes(args[0]))
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
