package importing_test

import (
	"errors"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestABackendWithoutARecordIndexIsRefusedBeforeAnythingIsWritten(t *testing.T) {
	m := sessiontest.NarrowManager(t)
	if _, err := importing.Import(m, target("imp-narrow"), transcript()); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("Import = %v, want errors.ErrUnsupported", err)
	}
	if _, err := m.Open("imp-narrow"); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("Open after a refused import = %v, want the session not created", err)
	}
}
