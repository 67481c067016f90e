package interop_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/interop"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// realFixtures is the team's folder of real Claude Code transcripts and Codex rollouts (its
// other files are not .jsonl, so an import leaves them alone).
const realFixtures = "../../../shared/fixtures/real"

// imported is what a store holds after an import, as a user reads it back.
type imported struct {
	result  interop.ImportResult
	listing []session.SessionInfo
	exports map[string]string   // session id → its sessionkeep JSONL export
	hits    map[string][]string // search term → "session/message: snippet", best first
}

// importRealStore imports the real transcripts into a new store with the given parsers
// (0: the default) and returns its manager, closed when the test ends, the store and the
// import's result. It skips the test when the fixtures are not beside the repository.
func importRealStore(t *testing.T, parsers int) (*session.Manager, *sqlite.Store, interop.ImportResult) {
	t.Helper()
	if _, err := os.Stat(realFixtures); err != nil {
		t.Skipf("the real fixtures are not beside the repository: %v", err)
	}
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := session.NewManager(st)
	t.Cleanup(func() { mgr.Close() })
	res, err := interop.Import(mgr, realFixtures, interop.ImportOptions{Parsers: parsers})
	if err != nil {
		t.Fatal(err)
	}
	return mgr, st, res
}

// importReal imports the real transcripts into a new store with the given parsers and
// reads back what a user would.
func importReal(t *testing.T, parsers int) imported {
	t.Helper()
	mgr, st, res := importRealStore(t, parsers)
	got := imported{result: res}
	var err error
	if got.listing, err = catalog.List(mgr, catalog.ListFilter{IncludeArchived: true}); err != nil {
		t.Fatal(err)
	}
	got.exports = map[string]string{}
	for _, id := range got.result.Sessions {
		text, err := interop.Export(mgr, id, interop.ExportOptions{Format: "jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		got.exports[id] = string(text)
	}
	got.hits = map[string][]string{}
	for _, term := range []string{"test", "file", "error", "rust", "commit"} {
		hits, err := st.Search(catalog.SearchQuery{Text: term, Limit: 100, Highlight: [2]string{"[", "]"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			got.hits[term] = append(got.hits[term], h.SessionID+"/"+h.MessageUUID+": "+h.Snippet)
		}
	}
	return got
}

func TestParallelImportStoresWhatASequentialOneDoes(t *testing.T) {
	one := importReal(t, 1)
	many := importReal(t, 4)
	if one.result.Records < 1000 || len(one.result.Sessions) < 5 || len(one.hits["test"]) == 0 {
		t.Fatalf("the sequential import read too little to compare: %d records, %d sessions, %d hits",
			one.result.Records, len(one.result.Sessions), len(one.hits["test"]))
	}
	sameImport(t, "sequential", one, "parallel", many)
}

// sameImport checks that imports a and b (named as they are) stored the same: result,
// listing, exports and search hits.
func sameImport(t *testing.T, aName string, a imported, bName string, b imported) {
	t.Helper()
	if !reflect.DeepEqual(a.result, b.result) {
		t.Errorf("results differ:\n%s %+v\n%s %+v", aName, a.result, bName, b.result)
	}
	if !reflect.DeepEqual(a.listing, b.listing) {
		t.Errorf("listings differ:\n%s %+v\n%s %+v", aName, a.listing, bName, b.listing)
	}
	for id, text := range a.exports {
		if b.exports[id] != text {
			t.Errorf("session %s exports differently after the %s import than after the %s one", id, bName, aName)
		}
	}
	if !reflect.DeepEqual(a.hits, b.hits) {
		t.Errorf("search hits differ:\n%s %v\n%s %v", aName, a.hits, bName, b.hits)
	}
}
