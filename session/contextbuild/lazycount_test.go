package contextbuild_test

import (
	"database/sql"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	_ "modernc.org/sqlite"
)

// TestMessagesWithoutCountsAreCountedOnceWhenNeeded: rows written before token counting
// existed (or whose counts a close dropped) are counted by the first build, and stored.
func TestMessagesWithoutCountsAreCountedOnceWhenNeeded(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := sessiontest.WithMessages(t, e, sessiontest.Conversation(300, true))
	before := build(t, s, contextbuild.BuildOptions{ContextWindow: 1_000_000})
	id := s.ID()
	e.Mgr.Close()

	db, err := sql.Open("sqlite", e.Path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE messages SET tokens = NULL, pruned_tokens = NULL, cum_tokens = NULL, cum_pruned = NULL, token_source = ''`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	e = sessiontest.OpenEnv(t, e.Path)
	if _, found, _ := e.Store.FirstUncounted(id); !found {
		t.Fatal("the counts were not cleared")
	}
	s = e.Open(t, id)
	after := build(t, s, contextbuild.BuildOptions{ContextWindow: 1_000_000})
	if after.TokensUsed != before.TokensUsed || after.Strategy != before.Strategy {
		t.Fatalf("counted lazily: %s %d tokens; counted as messages ended: %s %d", after.Strategy, after.TokensUsed, before.Strategy, before.TokensUsed)
	}
	if seq, found, err := e.Store.FirstUncounted(id); found || err != nil {
		t.Fatalf("message %d is still uncounted (%v)", seq, err)
	}
	idx, _ := e.Store.ContextIndex(id)
	if idx.LastSeq != 299 || idx.Total.Tokens <= 0 || idx.Total.Pruned >= idx.Total.Tokens {
		t.Fatalf("cumulative counts %+v", idx)
	}
}

// TestDeletingASessionDeletesItsSummariesAndBoundaries, and bookkeeping still queued for it
// (counts of its last messages) is dropped quietly rather than reported as a conflict.
func TestDeletingASessionDeletesItsSummariesAndBoundaries(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := sessiontest.WithMessages(t, e, sessiontest.Conversation(120, false))
	compact(t, s, 3, &summarizer{})
	sessiontest.Prompt(t, s, "one more")
	if err := catalog.Delete(e.Mgr, s.ID()); err != nil {
		t.Fatal(err)
	}
	if err := e.Store.Flush(); err != nil {
		t.Fatalf("Flush after deleting: %v", err)
	}
	db, err := sql.Open("sqlite", e.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, table := range []string{"summaries", "compactions", "context_states"} {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s holds %d rows after the session was deleted (%v)", table, n, err)
		}
	}
}
