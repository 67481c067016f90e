package postgres

import (
	"context"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestTheLastTrackerOfABatchIsStoredWithTheListing has one batch set two trackers of one
// session, and write to a second session without setting its tracker: the first keeps the
// last tracker, the second the one an earlier batch stored (the listing's UPDATE carries
// the tracker, NULLs for a session the batch set none of).
func TestTheLastTrackerOfABatchIsStoredWithTheListing(t *testing.T) {
	url, store, first, second := twoSessions(t)
	earlier := session.TokenTracker{InputTokens: 1, OutputTokens: 2, CacheReadInputTokens: 3, CacheCreationInputTokens: 4, ContextTokens: 5}
	store.Apply(session.SetTracker{SessionID: second.ID(), Tracker: earlier})
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	last := session.TokenTracker{InputTokens: 10, OutputTokens: 20, CacheReadInputTokens: 30, CacheCreationInputTokens: 40, ContextTokens: 50}
	store.Apply(session.SetTracker{SessionID: first.ID(), Tracker: session.TokenTracker{InputTokens: 7}},
		session.AddRedactions{SessionID: second.ID(), Count: 1},
		session.SetTracker{SessionID: first.ID(), Tracker: last})
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		id      string
		tracker session.TokenTracker
	}{{first.ID(), last}, {second.ID(), earlier}} {
		if got := storedTracker(t, url, want.id); got != want.tracker {
			t.Errorf("session %s stored tracker %+v, want %+v", want.id, got, want.tracker)
		}
	}
}

// storedTracker reads the tracker of session id from its row.
func storedTracker(t *testing.T, url, id string) session.TokenTracker {
	t.Helper()
	var tr session.TokenTracker
	err := connectAt(t, url).QueryRow(context.Background(), `SELECT input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, context_tokens FROM sessions WHERE id = $1`, id).
		Scan(&tr.InputTokens, &tr.OutputTokens, &tr.CacheReadInputTokens, &tr.CacheCreationInputTokens, &tr.ContextTokens)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
