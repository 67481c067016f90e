package postgres

import (
	"strings"

	"github.com/sessionkeep/sessionkeep/persistence/searchtext"
)

// searchText is the searchable text of a block, by the rule both stores index
// (persistence/searchtext); false when it has none, or is not JSON.
func searchText(block []byte) (string, bool) {
	text := searchtext.OfBlock(block)
	// PostgreSQL text cannot hold NUL, which JSON can ("\u0000"); it separates words anyway.
	return strings.ReplaceAll(string(text), "\x00", " "), len(text) > 0
}
