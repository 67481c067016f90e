package snapshots_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
)

func TestFileContentIsTheFileAsTheSnapshotRecordedIt(t *testing.T) {
	binary := "\x00\xff\xfe binary\n"
	e, s, project := projectSession(t, map[string]string{"src/app.js": "v1", "empty": "", "logo.bin": binary})
	sessiontest.Prompt(t, s, "first")
	first := snapshotFiles(t, s, project, "src/app.js", "empty", "logo.bin", "gone.txt")
	writeFiles(t, project, map[string]string{"src/app.js": "v2"})
	sessiontest.Prompt(t, s, "second")
	second := snapshotFiles(t, s, project, "src/app.js")

	read := func(snapshotID, path string) []byte {
		t.Helper()
		content, err := snapshots.FileContent(s, snapshotID, path)
		if err != nil {
			t.Fatalf("FileContent(%s, %s): %v", snapshotID, path, err)
		}
		return content
	}
	if got := read(first.ID, "src/app.js"); string(got) != "v1" {
		t.Errorf("src/app.js in the first snapshot = %q, want v1", got)
	}
	if got := read(second.ID, "src/app.js"); string(got) != "v2" {
		t.Errorf("src/app.js in the second snapshot = %q, want v2", got)
	}
	if got := read(first.ID, "logo.bin"); string(got) != binary {
		t.Errorf("logo.bin = %q, want the bytes as they were", got)
	}
	// An empty file has content, empty; a deleted one has none.
	if got := read(first.ID, "empty"); got == nil || len(got) != 0 {
		t.Errorf("the empty file = %#v, want empty, not nil", got)
	}
	if got := read(first.ID, "gone.txt"); got != nil {
		t.Errorf("a file deleted at the message = %q, want nil", got)
	}

	// The content survives a reopen, read from the file the store wrote.
	s2 := e.Reopen(t).Open(t, s.ID())
	if got, err := snapshots.FileContent(s2, first.ID, "src/app.js"); err != nil || string(got) != "v1" {
		t.Errorf("after reopening: %q, %v", got, err)
	}
}

func TestFileContentRefusesWhatTheSnapshotDoesNotHoldAndWritesNothing(t *testing.T) {
	e, s, project := projectSession(t, map[string]string{"a.txt": "a"})
	u := sessiontest.Prompt(t, s, "go")
	snap := snapshotFiles(t, s, project, "a.txt")
	imported, err := snapshots.Put(s, session.FileSnapshot{ID: "imported-1", MessageUUID: u["uuid"].(string),
		Files: []session.SnapshotFile{{Path: "nav.tsx", State: session.FilePresent}}})
	if err != nil {
		t.Fatal(err)
	}
	other := e.Create(t)
	sessiontest.Prompt(t, other, "elsewhere")
	before := listSnapshots(t, s)

	for _, c := range []struct {
		name           string
		s              *session.Session
		snapshot, path string
		want           error
	}{
		{"an unknown snapshot", s, "no-such-snapshot", "a.txt", session.ErrSnapshotNotFound},
		{"a snapshot of another session", other, snap.ID, "a.txt", session.ErrSnapshotNotFound},
		{"a path the snapshot does not track", s, snap.ID, "b.txt", session.ErrFileNotInSnapshot},
		{"a path not as the snapshot lists it", s, snap.ID, "./a.txt", session.ErrFileNotInSnapshot},
		{"an absolute path", s, snap.ID, filepath.Join(project, "a.txt"), session.ErrFileNotInSnapshot},
		{"a file imported without its backup", s, imported.ID, "nav.tsx", session.ErrBackupMissing},
		{"no snapshot id", s, "", "a.txt", session.ErrInvalidArgument},
		{"no path", s, snap.ID, "", session.ErrInvalidArgument},
	} {
		content, err := snapshots.FileContent(c.s, c.snapshot, c.path)
		if !errors.Is(err, c.want) || content != nil {
			t.Errorf("%s: %q, %v; want %v", c.name, content, err, c.want)
		}
	}
	if after := listSnapshots(t, s); !reflect.DeepEqual(after, before) {
		t.Fatalf("the snapshots changed: %+v, were %+v", after, before)
	}
	if n := len(listSnapshots(t, other)); n != 0 {
		t.Fatalf("the other session has %d snapshots", n)
	}
}

func TestFileContentReadsTheSnapshotAskedForAmongThoseOfOneMessage(t *testing.T) {
	_, s, project := projectSession(t, map[string]string{"f": "before"})
	u := sessiontest.Prompt(t, s, "go")
	early := snapshotFiles(t, s, project, "f")
	writeFiles(t, project, map[string]string{"f": "after"})
	late := snapshotFiles(t, s, project, "f") // of the same message: restoring takes this one
	if early.MessageUUID != u["uuid"] || late.MessageUUID != u["uuid"] {
		t.Fatal("both snapshots must be of the prompt")
	}
	if got := sessiontest.Must(snapshots.FileContent(s, early.ID, "f")); !bytes.Equal(got, []byte("before")) {
		t.Errorf("the earlier snapshot's f = %q, want before", got)
	}
	if got := sessiontest.Must(snapshots.FileContent(s, late.ID, "f")); !bytes.Equal(got, []byte("after")) {
		t.Errorf("the later snapshot's f = %q, want after", got)
	}

	// A fork reads the snapshots of the history it shares.
	f := sessiontest.Must(branches.Fork(s, u["uuid"].(string)))
	if got, err := snapshots.FileContent(f, early.ID, "f"); err != nil || string(got) != "before" {
		t.Errorf("from the fork: %q, %v", got, err)
	}
}
