package sqlite

import (
	"database/sql/driver"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestASCIITokensAreFTS5s: the query's tokens are split and folded as FTS5's unicode61
// tokenizer splits and folds the indexed text, for every printable ASCII character.
func TestASCIITokensAreFTS5s(t *testing.T) {
	db := rawDB(t, filepath.Join(t.TempDir(), "tokens.db"))
	exec(t, db, `CREATE VIRTUAL TABLE f USING fts5(text, tokenize='unicode61 remove_diacritics 2')`)
	exec(t, db, `CREATE VIRTUAL TABLE v USING fts5vocab(f, instance)`)
	var all strings.Builder
	for b := byte(0x21); b < 0x7f; b++ {
		all.WriteString("Ab9" + string(b) + "z")
	}
	words := []string{all.String(), "src/auth.go:42", "Hello_World", "--", "x", "MiXeD123case", "a.b-c"}
	for i, w := range words {
		exec(t, db, `INSERT INTO f(rowid, text) VALUES (?, ?)`, i+1, w)
		rows, err := db.Query(`SELECT term FROM v WHERE doc = ? ORDER BY offset`, i+1)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for rows.Next() {
			var term string
			rows.Scan(&term)
			want = append(want, term)
		}
		rows.Close()
		got, ok := asciiTokens(w)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: tokens %q (ok %v), FTS5's %q", w, got, ok, want)
		}
	}
	if _, ok := asciiTokens("naïve"); ok {
		t.Error("a word with a character outside ASCII is split in Go; only FTS5 knows how it folds")
	}
}

// searchedUUIDs returns the uuids of the messages a search for text finds, sorted.
func searchedUUIDs(t *testing.T, s *Store, text string) []string {
	t.Helper()
	hits, err := s.Search(catalog.SearchQuery{Text: text, Limit: 1000})
	if err != nil {
		t.Fatalf("search %q: %v", text, err)
	}
	uuids := []string{}
	for _, h := range hits {
		uuids = append(uuids, h.MessageUUID)
	}
	sort.Strings(uuids)
	return uuids
}

// prefixMatchedUUIDs returns the uuids of the messages FTS5's own prefix query (every
// word a catalog.PrefixPhrase) matches, sorted: what search found before its prefixes were
// expanded.
func prefixMatchedUUIDs(t *testing.T, s *Store, text string) []string {
	t.Helper()
	var phrases []string
	for _, w := range (catalog.SearchQuery{Text: text}).Words() {
		phrases = append(phrases, catalog.PrefixPhrase(w))
	}
	match := strings.Join(phrases, " ")
	uuids := []string{}
	err := s.read(func(c *sqlconn.Conn) error {
		return c.Query(`SELECT m.uuid FROM body_search JOIN messages m ON m.mid = body_search.rowid
			WHERE body_search MATCH ? ORDER BY m.uuid`, []any{match}, func(row []driver.Value) error {
			uuids = append(uuids, row[0].(string))
			return nil
		})
	})
	if err != nil {
		t.Fatalf("%s: %v", match, err)
	}
	return uuids
}

// writeTexts records a session of one prompt per text, and returns its id.
func writeTexts(t *testing.T, s *Store, texts ...string) string {
	t.Helper()
	sess := mustCreate(t, session.NewManager(s), session.CreateOptions{})
	for _, text := range texts {
		quoted := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(text)
		if _, err := sess.AppendUserMessage([]byte(`"` + quoted + `"`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	return sess.ID()
}

// TestExpandedPrefixesFindWhatFTS5PrefixesFind: a search whose prefixes are expanded into
// the indexed terms finds the messages FTS5's prefix query finds, for words of full length,
// prefixes, words the tokenizer splits, words outside ASCII, a prefix of more terms than it
// expands, and words in no message; and a message deleted leaves its terms harmless.
func TestExpandedPrefixesFindWhatFTS5PrefixesFind(t *testing.T) {
	s, _ := openTemp(t)
	texts := []string{
		"testing the parser", "tested it twice", "a test", "see src/auth.go:42 for the bug",
		"auth.go:420 is another line", "a naïve approach", "the NAIVE one", "Café au lait",
		`say "quoted" words`, "x*y is a product", "tests; tester, testament",
	}
	for i := 0; i < prefixTermsLimit+5; i++ {
		texts = append(texts, fmt.Sprintf("qterm%02d appears once", i))
	}
	writeTexts(t, s, texts...)
	gone := writeTexts(t, s, "osprey in a session that goes away")
	indexed(t, s)
	s.Apply(session.DeleteSession{SessionID: gone})
	queries := []string{
		"test", "TES", "testi", "tested", "src/auth.go:4", "auth.go", "auth.go:42", "naïve", "nai",
		"caf", "café", `"quoted"`, "x*y", "qterm", "qterm1", "qterm07", "zzz", "the test", "see auth",
		"osprey", "--", "a",
	}
	for _, q := range queries {
		if got, want := searchedUUIDs(t, s, q), prefixMatchedUUIDs(t, s, q); !reflect.DeepEqual(got, want) {
			t.Errorf("search %q found %v, FTS5's prefix query %v", q, got, want)
		}
	}
	if n := len(searchedUUIDs(t, s, "test")); n != 4 {
		t.Errorf("search \"test\" found %d messages, want the 4 with test, testing, tested, tests", n)
	}
	if n := len(searchedUUIDs(t, s, "qterm")); n != prefixTermsLimit+5 {
		t.Errorf("a prefix of %d terms found %d messages", prefixTermsLimit+5, n)
	}

	err := s.read(func(c *sqlconn.Conn) error {
		for word, want := range map[string]string{
			"testi":   `"testing"`,
			"TESTED":  `"tested"`,
			"auth.go": `("auth go" OR "auth goes")`,
			"qterm1":  `("qterm10" OR "qterm11" OR "qterm12" OR "qterm13" OR "qterm14" OR "qterm15" OR "qterm16" OR "qterm17" OR "qterm18" OR "qterm19")`,
			"qterm":   `"qterm"*`,
			"zzz":     `"zzz"`,
			"naïve":   `"naïve"*`,
		} {
			got, err := wordExpression(c, word)
			if err != nil {
				return err
			}
			if got != want {
				t.Errorf("%q is queried as %s, want %s", word, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSearchTermsMigrationFillsFromTheIndexes: a store indexed before migration 15 gets
// the terms of both indexes when it opens, and its prefixes find what they found.
func TestSearchTermsMigrationFillsFromTheIndexes(t *testing.T) {
	s, path := openTemp(t)
	writeTexts(t, s, "pelican and cormorant", "a pelicans' gathering")
	indexed(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	exec(t, db, `DROP TABLE search_terms`)
	exec(t, db, `DELETE FROM schema_migrations WHERE version = 15`)

	s = openAt(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM search_terms WHERE term IN ('pelican', 'pelicans', 'cormorant', 'gathering')`); n != 4 {
		t.Fatalf("the migration put %d of the 4 words in search_terms", n)
	}
	if n := len(searchedUUIDs(t, s, "pelic")); n != 2 {
		t.Errorf("a prefix finds %d messages after the migration, want 2", n)
	}
}

// TestRepairReadsTheTermsAgain: a repair rebuilds the indexes and reads their terms again,
// so a term lost from search_terms (which would make a prefix miss) is back.
func TestRepairReadsTheTermsAgain(t *testing.T) {
	s, path := openTemp(t)
	writeTexts(t, s, "heron by the river")
	indexed(t, s)
	db := rawDB(t, path)
	exec(t, db, `DELETE FROM search_terms`)
	if n := len(searchedUUIDs(t, s, "her")); n != 0 {
		t.Fatalf("with no terms a prefix found %d messages: the test does not test the terms", n)
	}
	if _, err := s.Verify(true); err != nil {
		t.Fatal(err)
	}
	if n := len(searchedUUIDs(t, s, "her")); n != 1 {
		t.Errorf("after a repair a prefix finds %d messages, want 1", n)
	}
}
