package catalog_test

import (
	"errors"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestABackendWithoutACatalogueIsRefusedNotCrashed(t *testing.T) {
	m := sessiontest.NarrowManager(t)
	s, err := m.Create(session.CreateOptions{ProjectPath: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]func() error{
		"List":        func() error { _, err := catalog.List(m, catalog.ListFilter{}); return err },
		"Latest":      func() error { _, err := catalog.Latest(m, "/p"); return err },
		"Resolve":     func() error { _, err := catalog.Resolve(m, s.ID()[:8]); return err },
		"Info":        func() error { _, err := catalog.Info(s, nil); return err },
		"Search":      func() error { _, err := catalog.Search(m, catalog.SearchQuery{Text: "x"}); return err },
		"Stats":       func() error { _, err := catalog.Stats(m, catalog.StatsFilter{}); return err },
		"Rename":      func() error { return catalog.Rename(m, s.ID(), "t") },
		"Archive":     func() error { return catalog.Archive(m, s.ID()) },
		"Delete":      func() error { return catalog.Delete(m, s.ID()) },
		"MoveProject": func() error { _, err := catalog.MoveProject(m, "/p", "/q"); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s = %v, want errors.ErrUnsupported", name, err)
		}
	}
	// Refused before anything was applied: the session is still there to be read.
	if _, err := m.Open(s.ID()); err != nil {
		t.Errorf("Open after the refused calls: %v", err)
	}
}

func TestCatalogueCallsOnAClosedManagerFailAsClosed(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	e.Mgr.Close()
	if _, err := catalog.List(e.Mgr, catalog.ListFilter{}); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("List = %v, want ErrStoreClosed", err)
	}
	if err := catalog.Rename(e.Mgr, s.ID(), "t"); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Rename = %v, want ErrStoreClosed", err)
	}
	if _, err := catalog.Info(s, nil); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Info = %v, want ErrStoreClosed", err)
	}
}
