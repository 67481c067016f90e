package sqlite

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// writeSearchable records a prompt holding word and a reply, and waits until they are
// durable.
func writeSearchable(t *testing.T, s *Store, word string) *session.Session {
	t.Helper()
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{})
	if _, err := sess.AppendUserMessage([]byte(`"find the ` + word + `"`)); err != nil {
		t.Fatal(err)
	}
	mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkText, Text: "found it"}, stream.Chunk{Kind: stream.ChunkDone})
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	return sess
}

func searchCount(t *testing.T, s *Store, word string) int {
	t.Helper()
	hits, err := s.Search(catalog.SearchQuery{Text: word, Limit: 10})
	if err != nil {
		t.Fatalf("search %q: %v", word, err)
	}
	return len(hits)
}

// TestSearchFindsWhatWasJustWritten: indexing is off the commit path, yet a search right
// after a write finds it, because the search lets the index catch up first.
func TestSearchFindsWhatWasJustWritten(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	writeSearchable(t, s, "quokka")
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_pending`); n != 2 {
		t.Fatalf("%d messages wait for the index right after the flush, want the 2 just written (indexing must not run on the commit path)", n)
	}
	if n := searchCount(t, s, "quokka"); n != 1 {
		t.Fatalf("search right after the write: %d hits, want 1", n)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_pending`); n != 0 {
		t.Errorf("%d messages still wait after a search", n)
	}
	exec(t, db, `INSERT INTO body_search(body_search) VALUES ('integrity-check')`)
}

// TestIdleWriterIndexesItsBlocks: a writer with nothing to commit indexes the messages it
// wrote on its own.
func TestIdleWriterIndexesItsBlocks(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	writeSearchable(t, s, "wombat")
	deadline := time.Now().Add(10 * time.Second)
	for queryInt(t, db, `SELECT COUNT(*) FROM body_pending`) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle writer never indexed the blocks it wrote")
		}
		time.Sleep(indexIdle)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_search WHERE body_search MATCH 'wombat'`); n != 1 {
		t.Errorf("the index holds %d matches for the prompt, want 1", n)
	}
}

// TestIndexQueueOutlivesTheProcess: blocks a closed store left unindexed stay queued in the
// file; a new store does not index them unasked (opening a store costs no background
// work), and its first search indexes them.
func TestIndexQueueOutlivesTheProcess(t *testing.T) {
	s, path := openTemp(t)
	writeSearchable(t, s, "numbat")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_pending`); n != 2 {
		t.Fatalf("%d messages queued after close, want 2", n)
	}
	again := openAt(t, path)
	time.Sleep(3 * indexIdle)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_pending`); n != 2 {
		t.Errorf("opening the store indexed %d messages unasked", 2-n)
	}
	if n := searchCount(t, again, "numbat"); n != 1 {
		t.Errorf("first search after reopening: %d hits, want 1", n)
	}
}

// TestChangedIndexedBlockIsReindexed: a journaled block (its message still streaming)
// already indexed whose row changes (a retried write, an edit by hand) leaves the index by
// its old text and is queued with the new.
func TestChangedIndexedBlockIsReindexed(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	sess := mustCreate(t, session.NewManager(s), session.CreateOptions{})
	mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkMessageStart},
		stream.Chunk{Kind: stream.ChunkToolUse, ID: "toolu_1", Name: "echidna", JSON: []byte(`{}`)})
	indexed(t, s)
	if n := searchCount(t, s, "echidna"); n != 1 {
		t.Fatalf("the journaled block: %d hits, want 1", n)
	}
	exec(t, db, `UPDATE blocks SET body = '{"type":"text","text":"find the platypus"}' WHERE CAST(body AS TEXT) LIKE '%echidna%'`)
	if n := searchCount(t, s, "echidna"); n != 0 {
		t.Errorf("the old text is still found: %d hits", n)
	}
	if n := searchCount(t, s, "platypus"); n != 1 {
		t.Errorf("the new text: %d hits, want 1", n)
	}
	exec(t, db, `INSERT INTO message_search(message_search, rank) VALUES ('integrity-check', 1)`)
}

// TestIndexForSearchEmptiesTheQueue: what a bulk import calls leaves nothing for the first
// search to index.
func TestIndexForSearchEmptiesTheQueue(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	for _, word := range []string{"aardvark", "bilby", "cassowary"} {
		writeSearchable(t, s, word)
	}
	if err := s.IndexForSearch(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_pending`); n != 0 {
		t.Fatalf("%d messages still queued", n)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_search WHERE body_search MATCH 'bilby'`); n != 1 {
		t.Errorf("the index holds %d matches, want 1", n)
	}
}

// TestIndexFailureDoesNotStopWrites: with indexing broken (the view it reads is gone), a search
// reports the failure, and writes go on being committed at once; the writer does not keep
// retrying the index when idle.
func TestIndexFailureDoesNotStopWrites(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	// Broken before the first write, so that the writer, idle on a loaded machine, cannot
	// index that write before the view is gone.
	exec(t, db, `DROP VIEW body_search_text`)
	writeSearchable(t, s, "dingo")
	if _, err := s.Search(catalog.SearchQuery{Text: "dingo", Limit: 1}); err == nil {
		t.Fatal("a search over a missing index succeeded")
	}
	start := time.Now()
	writeSearchable(t, s, "emu")
	if took := time.Since(start); took > time.Second {
		t.Errorf("a write after the index failed took %v", took)
	}
	time.Sleep(3 * indexIdle)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_pending`); n != 4 {
		t.Errorf("%d messages queued, want the 4 written: none is lost while the index is broken", n)
	}
}
