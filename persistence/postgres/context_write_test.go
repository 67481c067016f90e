package postgres

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// TestTokenCountsAddUpInOneStatement counts messages in the orders the counter and the lazy
// builder hand them over: the first message alone, then two in one batch (each cumulative
// count reads the one queued before it in the same pipeline), then one whose previous
// message is not counted, which stays without a cumulative count.
func TestTokenCountsAddUpInOneStatement(t *testing.T) {
	store := openAt(t, freshURL(t))
	s := newSession(t, session.NewManager(store), "zero", "one", "two", "three", "four")
	id := s.ID()
	set := func(seq, n int64) session.Op {
		return tokens.SetTokens{SessionID: id, Seq: seq, Count: tokens.TokenCount{Tokens: n, Pruned: n / 10, Source: tokens.TokensFromTokenizer}}
	}
	cumAt := func(seq int64) contextbuild.Cum {
		t.Helper()
		if err := store.Flush(); err != nil {
			t.Fatal(err)
		}
		cum, err := store.CumAt(id, seq)
		if err != nil {
			t.Fatal(err)
		}
		return cum
	}
	store.Apply(set(0, 100))
	if got, want := cumAt(0), (contextbuild.Cum{Tokens: 100, Pruned: 10}); got != want {
		t.Errorf("the first message: %+v, want %+v", got, want)
	}
	store.Apply(set(1, 20), set(2, 3000))
	if got, want := cumAt(2), (contextbuild.Cum{Tokens: 3120, Pruned: 312}); got != want {
		t.Errorf("two counted in one batch: %+v, want %+v", got, want)
	}
	store.Apply(set(4, 50))
	if first, ok, err := store.FirstUncounted(id); err != nil || !ok || first != 3 {
		t.Errorf("FirstUncounted = %d, %v, %v; want 3", first, ok, err)
	}
	if got := cumAt(4); got != (contextbuild.Cum{}) {
		t.Errorf("a message after one not counted has cumulative counts %+v, want none", got)
	}
	store.Apply(set(3, 7), set(4, 50))
	if got, want := cumAt(4), (contextbuild.Cum{Tokens: 3177, Pruned: 317}); got != want {
		t.Errorf("the gap filled: %+v, want %+v", got, want)
	}
}
