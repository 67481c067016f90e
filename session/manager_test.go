package session_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestOpenReturnsTheLiveSessionUntilLastClose(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	again := e.Open(t, s.ID())
	if again != s {
		t.Fatalf("Open of a live session returned another *Session")
	}
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("still streaming"))
	s.Close() // one of two users: the session stays live and keeps streaming
	sessiontest.Feed(t, again, sessiontest.Text("..."))
	again.Close()
	if err := again.Ingest(sessiontest.Text("x")); !errors.Is(err, session.ErrStoreClosed) {
		t.Fatalf("Ingest after the last Close: err = %v, want ErrStoreClosed", err)
	}
	if _, err := again.Messages(false); !errors.Is(err, session.ErrStoreClosed) {
		t.Fatalf("Messages after the last Close: err = %v, want ErrStoreClosed", err)
	}
	// Closed with a message unfinished: it is recorded as interrupted, text kept.
	reopened := e.Open(t, s.ID())
	if reopened == s {
		t.Fatalf("Open after the last Close returned the closed *Session")
	}
	envs := sessiontest.Envelopes(t, reopened)
	if len(envs) != 1 || envs[0]["status"] != "interrupted" {
		t.Fatalf("after Close mid-stream: %v", envs)
	}
	if got := sessiontest.Content(t, envs[0]["message"].(map[string]any)); got[0]["text"] != "still streaming..." {
		t.Fatalf("content = %v", got)
	}
}

func TestManagerErrors(t *testing.T) {
	e := sessiontest.NewEnv(t)
	if _, err := e.Mgr.Open("01900000-0000-7000-8000-000000000000"); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("Open(unknown): err = %v, want ErrSessionNotFound", err)
	}
	if _, err := e.Mgr.Create(session.CreateOptions{ContextWindow: -1}); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("Create(contextWindow -1): err = %v, want ErrInvalidArgument", err)
	}
	if _, err := catalog.List(e.Mgr, catalog.ListFilter{Limit: -1}); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("List(limit -1): err = %v, want ErrInvalidArgument", err)
	}
}

func TestManagerCloseInterruptsAndRefusesLaterCalls(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	id := s.ID()
	sessiontest.Prompt(t, s, "hi")
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("cut"))
	if err := e.Mgr.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Mgr.Close(); err != nil {
		t.Errorf("second Manager.Close: %v", err)
	}
	if _, err := e.Mgr.Create(session.CreateOptions{}); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Create after Close: err = %v", err)
	}
	if _, err := e.Mgr.Open(id); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Open after Close: err = %v", err)
	}
	if _, err := catalog.List(e.Mgr, catalog.ListFilter{}); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("List after Close: err = %v", err)
	}
	if _, err := s.AppendUserMessage([]byte(`"x"`)); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("AppendUserMessage after Close: err = %v", err)
	}
	if _, err := s.TokenTracker(); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("TokenTracker after Close: err = %v", err)
	}
	envs := sessiontest.Envelopes(t, sessiontest.OpenEnv(t, e.Path).Open(t, id))
	if len(envs) != 2 || envs[1]["status"] != "interrupted" {
		t.Fatalf("after Manager.Close mid-stream: %v", envs)
	}
}

func TestListTitlesAndCounts(t *testing.T) {
	e := sessiontest.NewEnv(t)
	a := e.Create(t)
	sessiontest.Prompt(t, a, "  Fix the flaky test\nIt fails on CI only.")
	sessiontest.Prompt(t, a, "second prompt does not rename")
	b := e.Create(t)
	long := strings.Repeat("é", 200)
	sessiontest.Prompt(t, b, long)
	c, _ := e.Mgr.Create(session.CreateOptions{Title: "given"})
	sessiontest.Prompt(t, c, "not the title")

	titles := map[string]string{}
	counts := map[string]int64{}
	for _, info := range sessiontest.Must(catalog.List(e.Mgr, catalog.ListFilter{})) {
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
