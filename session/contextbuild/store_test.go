package contextbuild_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// A backend that keeps messages but no context cache (a session.Store and nothing more)
// records a conversation; building, compacting and summarizing from it fail with
// errors.ErrUnsupported instead of crashing, and the messages stay readable.
func TestContextBuildingRefusesAStoreWithoutAContextCache(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "sessions.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := session.NewManager(struct{ session.Store }{st})
	defer m.Close()
	s, err := m.Create(session.CreateOptions{ProjectPath: "/proj", Provider: "anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	sessiontest.Prompt(t, s, "hello")
	if _, err := contextbuild.Build(s, contextbuild.BuildOptions{ContextWindow: 200_000}); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Build = %v, want errors.ErrUnsupported", err)
	}
	if _, err := contextbuild.PlanCompaction(s, contextbuild.CompactOptions{}); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("PlanCompaction = %v, want errors.ErrUnsupported", err)
	}
	if _, err := contextbuild.NextSummaryStep(s, 0, contextbuild.SummaryOptions{}); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("NextSummaryStep = %v, want errors.ErrUnsupported", err)
	}
	if msgs := sessiontest.Messages(t, s); len(msgs) != 1 {
		t.Errorf("messages = %v, want the prompt", msgs)
	}
}
