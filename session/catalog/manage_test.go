package catalog_test

import (
	"errors"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestRenamingALiveSessionKeepsItsFirstPromptFromRetitlingIt(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	if err := catalog.Rename(e.Mgr, s.ID(), "  chosen  "); err != nil {
		t.Fatal(err)
	}
	sessiontest.Prompt(t, s, "the first prompt would otherwise name it")
	info := sessiontest.Must(catalog.Resolve(e.Mgr, s.ID()))
	if info.Title != "chosen" {
		t.Errorf("title %q, want the one given, trimmed", info.Title)
	}
	if err := catalog.Rename(e.Mgr, s.ID(), " "); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("blank title: %v", err)
	}
}

func TestDeletingALiveSessionClosesItAndForgetsIt(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "hello")
	if err := catalog.Delete(e.Mgr, s.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendUserMessage(sessiontest.MustMarshal(t, "more")); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("the deleted session took a message: %v", err)
	}
	if _, err := catalog.Resolve(e.Mgr, s.ID()); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("Resolve after Delete = %v, want ErrSessionNotFound", err)
	}
	if err := catalog.Delete(e.Mgr, s.ID()); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("second Delete = %v, want ErrSessionNotFound", err)
	}
}
