package session_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestOpenReturnsTheLiveSessionUntilLastClose(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	again := e.open(t, s.ID())
	if again != s {
		t.Fatalf("Open of a live session returned another *Session")
	}
	feed(t, s, start("m"), text("still streaming"))
	s.Close() // one of two users: the session stays live and keeps streaming
	feed(t, again, text("..."))
	again.Close()
	if err := again.Ingest(text("x")); !errors.Is(err, session.ErrStoreClosed) {
		t.Fatalf("Ingest after the last Close: err = %v, want ErrStoreClosed", err)
	}
	if _, err := again.Messages(false); !errors.Is(err, session.ErrStoreClosed) {
		t.Fatalf("Messages after the last Close: err = %v, want ErrStoreClosed", err)
	}
	// Closed with a message unfinished: it is recorded as interrupted, text kept.
	reopened := e.open(t, s.ID())
	if reopened == s {
		t.Fatalf("Open after the last Close returned the closed *Session")
	}
	envs := envelopes(t, reopened)
	if len(envs) != 1 || envs[0]["status"] != "interrupted" {
		t.Fatalf("after Close mid-stream: %v", envs)
	}
	if got := content(t, envs[0]["message"].(map[string]any)); got[0]["text"] != "still streaming..." {
		t.Fatalf("content = %v", got)
	}
}

func TestManagerErrors(t *testing.T) {
	e := newEnv(t)
	if _, err := e.mgr.Open("01900000-0000-7000-8000-000000000000"); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("Open(unknown): err = %v, want ErrSessionNotFound", err)
	}
	if _, err := e.mgr.Create(session.CreateOptions{ContextWindow: -1}); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("Create(contextWindow -1): err = %v, want ErrInvalidArgument", err)
	}
	if _, err := e.mgr.List(session.ListFilter{Limit: -1}); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("List(limit -1): err = %v, want ErrInvalidArgument", err)
	}
}

func TestManagerCloseInterruptsAndRefusesLaterCalls(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	id := s.ID()
	prompt(t, s, "hi")
	feed(t, s, start("m"), text("cut"))
	if err := e.mgr.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.mgr.Close(); err != nil {
		t.Errorf("second Manager.Close: %v", err)
	}
	if _, err := e.mgr.Create(session.CreateOptions{}); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Create after Close: err = %v", err)
	}
	if _, err := e.mgr.Open(id); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Open after Close: err = %v", err)
	}
	if _, err := e.mgr.List(session.ListFilter{}); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("List after Close: err = %v", err)
	}
	if _, err := s.AppendUserMessage([]byte(`"x"`)); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("AppendUserMessage after Close: err = %v", err)
	}
	if _, err := s.TokenTracker(); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("TokenTracker after Close: err = %v", err)
	}
	envs := envelopes(t, openEnv(t, e.path).open(t, id))
	if len(envs) != 2 || envs[1]["status"] != "interrupted" {
		t.Fatalf("after Manager.Close mid-stream: %v", envs)
	}
}

func TestListTitlesAndCounts(t *testing.T) {
	e := newEnv(t)
	a := e.create(t)
	prompt(t, a, "  Fix the flaky test\nIt fails on CI only.")
	prompt(t, a, "second prompt does not rename")
	b := e.create(t)
	long := strings.Repeat("é", 200)
	prompt(t, b, long)
	c, _ := e.mgr.Create(session.CreateOptions{Title: "given"})
	prompt(t, c, "not the title")

	titles := map[string]string{}
	counts := map[string]int64{}
	for _, info := range must(e.mgr.List(session.ListFilter{})) {
		titles[info.ID], counts[info.ID] = info.Title, info.MessageCount
	}
	if titles[a.ID()] != "Fix the flaky test" || counts[a.ID()] != 2 {
		t.Errorf("a: title %q count %d", titles[a.ID()], counts[a.ID()])
	}
	if n := utf8.RuneCountInString(titles[b.ID()]); n != 80 || !strings.HasSuffix(titles[b.ID()], "…") || !strings.HasPrefix(long, strings.TrimSuffix(titles[b.ID()], "…")) {
		t.Errorf("b: long title %q (%d runes), want the prompt cut to 80 characters with an ellipsis", titles[b.ID()], n)
	}
	if titles[c.ID()] != "given" {
		t.Errorf("c: title %q, want the one given at Create", titles[c.ID()])
	}
}
