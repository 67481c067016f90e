package snapshots_test

import (
	"errors"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
)

func TestABackendWithoutSnapshotsIsRefusedNotCrashed(t *testing.T) {
	s, err := sessiontest.NarrowManager(t).Create(session.CreateOptions{ProjectPath: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snapshots.List(s, ""); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("List = %v, want errors.ErrUnsupported", err)
	}
	if _, err := snapshots.Restore(s, "any", snapshots.RestoreOptions{Into: t.TempDir()}); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Restore = %v, want errors.ErrUnsupported", err)
	}
	if _, err := snapshots.FileContent(s, "any", "a.txt"); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("FileContent = %v, want errors.ErrUnsupported", err)
	}
}
