package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// Full-text search and usage statistics over every session of a store, each also off the
// JS thread: both can read a large part of the database.
func init() {
	native.Register("search", storeQuery(search, false))
	native.Register("searchAsync", storeQuery(search, true))
	native.Register("stats", storeQuery(stats, false))
	native.Register("statsAsync", storeQuery(stats, true))
}

func search(h *storeHandle, q catalog.SearchQuery) (any, error) { return catalog.Search(h.sessions, q) }
func stats(h *storeHandle, f catalog.StatsFilter) (any, error)  { return catalog.Stats(h.sessions, f) }
