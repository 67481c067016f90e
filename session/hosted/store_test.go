package hosted_test

import (
	"errors"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/hosted"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestABackendWithoutHostedStateIsRefusedNotCrashed(t *testing.T) {
	s, err := sessiontest.NarrowManager(t).Create(session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hosted.History(s, 0); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("History = %v, want errors.ErrUnsupported", err)
	}
	if _, err := hosted.FormatMissedContext(s, 100); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("FormatMissedContext = %v, want errors.ErrUnsupported", err)
	}
	if _, err := hosted.Status(s); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Status = %v, want errors.ErrUnsupported", err)
	}
}
