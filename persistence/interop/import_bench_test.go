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
// search index: the "searchable" time of bench/import.mjs.
func BenchmarkImportReal(b *testing.B) {
	benchmarkImport(b, func(st *sqlite.Store) error {
		_, err := st.Search(catalog.SearchQuery{Text: "test", Limit: 1})
		return err
	})
}

// BenchmarkImportRealCommitted imports the real transcripts into a new store until every
// record is committed: the time of bench/import.mjs's `await store.import()`.
func BenchmarkImportRealCommitted(b *testing.B) {
	benchmarkImport(b, func(st *sqlite.Store) error { return st.Sync() })
}

// benchmarkImport times an import into a new store and then done; opening and closing
// the store are not timed.
func benchmarkImport(b *testing.B, done func(*sqlite.Store) error) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st, err := sqlite.Open(filepath.Join(b.TempDir(), "store.db"))
		if err != nil {
			b.Fatal(err)
		}
		mgr := session.NewManager(st)
		b.StartTimer()
		if _, err := interop.Import(mgr, realFixtures, interop.ImportOptions{}); err != nil {
			b.Fatal(err)
		}
		if err := done(st); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		mgr.Close()
		b.StartTimer()
	}
}
