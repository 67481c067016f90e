package postgres

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// countHits searches m for text and returns how many messages match.
func countHits(t *testing.T, m *session.Manager, text string) int {
	t.Helper()
	hits, err := catalog.Search(m, catalog.SearchQuery{Text: text})
	if err != nil {
		t.Fatalf("search %q: %v", text, err)
	}
	return len(hits)
}

// waitingMessages is how many messages of the store wait to be indexed for search, asked on
// the store's pool but not as one of its reads, which the background indexer yields to.
func waitingMessages(t *testing.T, s *Store) int64 {
	t.Helper()
	var n int64
	err := func(c conn) error {
		return c.query(`SELECT count(*) FROM messages WHERE search IS NULL AND (body IS NOT NULL OR search_text IS NOT NULL)`, nil, func(row []any) error {
			n = row[0].(int64)
			return nil
		})
	}(conn{s.pool, context.Background()})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// newSession creates a session in m and appends texts to it as user messages.
func newSession(t *testing.T, m *session.Manager, texts ...string) *session.Session {
	t.Helper()
	s, err := m.Create(session.CreateOptions{Title: "indexed"})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range texts {
		if _, err := s.AppendUserMessage([]byte(strconv.Quote(text))); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestSearchRightAfterAWrite searches at once after appending, with the background indexer
// stopped: the search indexes the block itself, and finds it.
func TestSearchRightAfterAWrite(t *testing.T) {
	store := openAt(t, freshURL(t))
	store.indexer.close()
	m := session.NewManager(store)
	newSession(t, m, "the flamingo deploys on friday")
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := waitingMessages(t, store); n != 1 {
		t.Fatalf("%d messages waiting after the write, want 1: the writer must not index", n)
	}
	if got := countHits(t, m, "flamingo"); got != 1 {
		t.Errorf("search right after the write: %d hits, want 1", got)
	}
	if n := waitingMessages(t, store); n != 0 {
		t.Errorf("%d messages still waiting after a search", n)
	}
}

// TestSearchFindsAnotherHostsBlocks writes on one store, whose indexer is stopped, and
// searches on a second store of the same schema: the second indexes what the first wrote.
func TestSearchFindsAnotherHostsBlocks(t *testing.T) {
	url := freshURL(t)
	first, second := openAt(t, url), openAt(t, url)
	first.indexer.close()
	second.indexer.close()
	newSession(t, session.NewManager(first), "pelican migration notes", "the pelican returns")
	if err := first.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := countHits(t, session.NewManager(second), "pelican"); got != 2 {
		t.Errorf("search on the second host: %d hits, want 2", got)
	}
}

// TestIndexedWhenIdle writes blocks and does not search: the background indexer indexes
// them once the writer has been idle.
func TestIndexedWhenIdle(t *testing.T) {
	store := openAt(t, freshURL(t))
	texts := make([]string, 2*idleIndexSlice+3) // more than one slice
	for i := range texts {
		texts[i] = "heron " + strconv.Itoa(i)
	}
	newSession(t, session.NewManager(store), texts...)
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for waitingMessages(t, store) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d messages still waiting 10 s after the last write", waitingMessages(t, store))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestARewrittenBlockIsSearchedByItsNewText stores a partial block, completes it, and then
// rewrites the complete block: each time the search finds the block's last words only, so
// a rewrite resets the vector computed for the words before it.
func TestARewrittenBlockIsSearchedByItsNewText(t *testing.T) {
	store := openAt(t, freshURL(t))
	m := session.NewManager(store)
	s := newSession(t, m)
	put := func(text string, partial bool) {
		store.Apply(session.PutBlock{SessionID: s.ID(), Seq: 0, Index: 0, Partial: partial,
			JSON: []byte(`{"type":"text","text":` + strconv.Quote(text) + `}`)})
	}
	store.Apply(session.BeginMessage{SessionID: s.ID(), Header: session.MessageHeader{
		Seq: 0, UUID: "0190a0b0-0000-7000-8000-000000000001", Type: "assistant", Role: "assistant", CreatedAt: time.Now()}})
	put("albatross halfway", true)
	if got := countHits(t, m, "albatross"); got != 0 {
		t.Errorf("a partial block found: %d hits", got)
	}
	put("cormorant complete", false)
	store.Apply(session.EndMessage{SessionID: s.ID(), Seq: 0, Status: session.MessageComplete})
	for text, want := range map[string]int{"albatross": 0, "cormorant": 1} {
		if got := countHits(t, m, text); got != want {
			t.Errorf("after completing, search %q: %d hits, want %d", text, got, want)
		}
	}
	put("kestrel rewritten", false)
	for text, want := range map[string]int{"cormorant": 0, "kestrel": 1} {
		if got := countHits(t, m, text); got != want {
			t.Errorf("after rewriting, search %q: %d hits, want %d", text, got, want)
		}
	}
}

// TestReadOnlySearch searches through connections that may not write (a standby, a role
// that may only read): the search cannot index what is waiting, and still answers, from
// the blocks already indexed.
func TestReadOnlySearch(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	store.indexer.close()
	m := session.NewManager(store)
	newSession(t, m, "grebe indexed")
	if got := countHits(t, m, "grebe"); got != 1 {
		t.Fatalf("search before going read-only: %d hits, want 1", got)
	}
	newSession(t, m, "grebe waiting")
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	setReadOnly := func(on string) {
		if _, err := admin.Exec(ctx, `ALTER DATABASE `+pgx.Identifier{admin.Config().Database}.Sanitize()+` SET default_transaction_read_only = `+on); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() {
		setReadOnly("off")
		admin.Close(ctx)
	})
	setReadOnly("on")
	store.pool.Reset() // new connections read the setting
	hits, err := catalog.Search(m, catalog.SearchQuery{Text: "grebe"})
	if err != nil || len(hits) != 1 {
		t.Errorf("read-only search: %d hits, %v; want the indexed block only, no error", len(hits), err)
	}
}

// TestHostsIndexAtOnce has four stores of one schema index the same waiting blocks at once,
// two of them in the background: none fails, and every block ends indexed.
func TestHostsIndexAtOnce(t *testing.T) {
	url := freshURL(t)
	writer := openAt(t, url)
	writer.indexer.close()
	texts := make([]string, waitedIndexSlice+idleIndexSlice) // more than one slice of each
	for i := range texts {
		texts[i] = "sandpiper " + strconv.Itoa(i)
	}
	newSession(t, session.NewManager(writer), texts...)
	if err := writer.Flush(); err != nil {
		t.Fatal(err)
	}
	hosts := []*Store{openAt(t, url), openAt(t, url), openAt(t, url), openAt(t, url)}
	errs := make(chan error, len(hosts))
	for _, h := range hosts[:2] {
		go func() { errs <- h.IndexForSearch() }()
	}
	for _, h := range hosts[2:] {
		h.indexer.noteCommit(true) // indexes once idle, alongside the two searching
		go func() { errs <- h.IndexForSearch() }()
	}
	for range hosts {
		if err := <-errs; err != nil {
			t.Errorf("indexing at once: %v", err)
		}
	}
	if n := waitingMessages(t, writer); n != 0 {
		t.Errorf("%d messages still waiting after every host indexed", n)
	}
}
