package interop_test

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/interop"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
)

// goldenSearch holds, for each term importReal searches, the count and sha256 of the hits
// (session, message, snippet) over the real transcripts imported. Written by
// SK_UPDATE_GOLDEN=1 go test -run SearchOverTheRealTranscripts with the bodies of an import
// stored as live ones are (s2, main at 505d7f0): packing them with zstd and a dictionary
// (persistence/bodycodec/dict.go) must not change what search finds or its snippets. Written
// again when SQLite's search came to rank a word that starts several terms by each of them
// (persistence/sqlite: search_terms.go): the same hits, in another order (so, past a limit,
// not always the same ones).
const goldenSearch = "testdata/real_search.sha256"

func TestSearchOverTheRealTranscriptsIsUnchanged(t *testing.T) {
	got := importReal(t, 0)
	var lines []string
	for term, hits := range got.hits {
		sum := sha256.Sum256([]byte(strings.Join(hits, "\n")))
		lines = append(lines, fmt.Sprintf("%s %d %s", term, len(hits), hex.EncodeToString(sum[:])))
	}
	sort.Strings(lines)
	text := strings.Join(lines, "\n") + "\n"
	if os.Getenv("SK_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(goldenSearch, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenSearch)
	if err != nil {
		t.Fatal(err)
	}
	if text != string(want) {
		t.Errorf("search over the real transcripts changed:\ngot\n%s\nwant\n%s", text, want)
	}
}

// TestImportPacksBodiesWithTheDictionary: an import stores its records' bodies packed with
// the dictionary (first byte 0x01 with zstd, 0x02 with s2), none with s2 alone (0x00), and
// extra columns packed the same way, on records with a body and without, so the tests that read an imported
// store back (exports, search, parallel imports) read that codec.
func TestImportPacksBodiesWithTheDictionary(t *testing.T) {
	if _, err := os.Stat(realFixtures); err != nil {
		t.Skipf("the real fixtures are not beside the repository: %v", err)
	}
	path := filepath.Join(t.TempDir(), "store.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mgr := session.NewManager(st)
	if _, err := interop.Import(mgr, realFixtures, interop.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := mgr.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := map[string]int{}
	rows, err := db.Query(`SELECT hex(substr(body, 1, 1)), COUNT(*) FROM messages WHERE body IS NOT NULL GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var first string
		var n int
		if err := rows.Scan(&first, &n); err != nil {
			t.Fatal(err)
		}
		count[first] = n
	}
	if count["00"] != 0 || count["01"] < 1000 || count["02"] == 0 {
		t.Errorf("bodies by first byte %v: want none packed with s2 alone (00), most with zstd and the dictionary (01), the smaller with s2 and it (02)", count)
	}
	for _, kind := range []string{"body IS NULL", "body IS NOT NULL"} {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM messages WHERE substr(extra, 1, 1) IN (x'01', x'02') AND ` + kind).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("no packed extra column on a row where %s", kind)
		}
	}
}
