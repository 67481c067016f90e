package interop_test

import (
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/interop"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// BenchmarkImportReal imports the real transcripts into a new store and waits for the
// search index, as bench/import.mjs times it in Node.
func BenchmarkImportReal(b *testing.B) {
	for i := 0; i < b.N; i++ {
		st, err := sqlite.Open(filepath.Join(b.TempDir(), "store.db"))
		if err != nil {
			b.Fatal(err)
		}
		mgr := session.NewManager(st)
		if _, err := interop.Import(mgr, realFixtures, interop.ImportOptions{}); err != nil {
			b.Fatal(err)
		}
		if _, err := st.Search(catalog.SearchQuery{Text: "test", Limit: 1}); err != nil {
			b.Fatal(err)
		}
		mgr.Close()
	}
}
