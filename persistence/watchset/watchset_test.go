package watchset

import "testing"

func TestWatchersShareACountUntilTheLastLeaves(t *testing.T) {
	s := New[int]()
	firsts := 0
	first := func() int { firsts++; return 7 }
	if v := s.Add("a", first); v != 0 {
		t.Fatalf("a new watch starts at %d, want 0", v)
	}
	s.Changed("a")
	if v := s.Add("a", first); v != 1 || firsts != 1 {
		t.Fatalf("a second watcher got count %d with %d first states, want 1 and 1", v, firsts)
	}
	s.Remove("a")
	if v := s.Version("a"); v != 1 {
		t.Fatalf("after one of two watchers left the count is %d, want 1", v)
	}
	s.Remove("a")
	if v := s.Version("a"); v != 0 {
		t.Fatalf("after the last watcher left the count is %d, want 0 (forgotten)", v)
	}
	s.Changed("b") // not watched: nothing to count
	if v := s.Version("b"); v != 0 {
		t.Fatalf("an unwatched session counts %d, want 0", v)
	}
}

func TestLookKeepsStateAndCountsOnlyWhatChanged(t *testing.T) {
	s := New[string]()
	s.Add("same", func() string { return "row" })
	s.Add("moved", func() string { return "old" })
	s.Look(func(id, state string) (string, bool) {
		if id == "moved" {
			return "new", state != "new"
		}
		return state, false
	})
	if s.Version("same") != 0 || s.Version("moved") != 1 {
		t.Fatalf("counts same=%d moved=%d, want 0 and 1", s.Version("same"), s.Version("moved"))
	}
	var seen string
	s.Look(func(id, state string) (string, bool) {
		if id == "moved" {
			seen = state
		}
		return state, false
	})
	if seen != "new" {
		t.Fatalf("Look kept state %q, want the one returned before, %q", seen, "new")
	}
}
