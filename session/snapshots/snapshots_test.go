package snapshots_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
)

// writeFiles creates files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree returns every file under dir, path → content.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// projectSession opens a fresh store with one session, and a project folder holding files.
func projectSession(t *testing.T, files map[string]string) (*sessiontest.Env, *session.Session, string) {
	t.Helper()
	e := sessiontest.NewEnv(t)
	project := t.TempDir()
	writeFiles(t, project, files)
	return e, e.Create(t), project
}

func snapshotFiles(t *testing.T, s *session.Session, root string, paths ...string) session.FileSnapshot {
	t.Helper()
	snap, err := snapshots.Take(s, paths, snapshots.TakeOptions{Root: root})
	if err != nil {
		t.Fatalf("Take(%v): %v", paths, err)
	}
	return snap
}

func listSnapshots(t *testing.T, s *session.Session) []session.FileSnapshot {
	t.Helper()
	var list []session.FileSnapshot
	if err := json.Unmarshal(sessiontest.Must(snapshots.List(s, "")), &list); err != nil {
		t.Fatal(err)
	}
	return list
}

func sha(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:])
}

func TestSnapshotAndRestoreFollowTheBranch(t *testing.T) {
	e, s, project := projectSession(t, map[string]string{"src/app.js": "v1", "README.md": "readme"})

	u1 := sessiontest.Prompt(t, s, "make it v2")
	snap := snapshotFiles(t, s, project, "src/app.js", filepath.Join(project, "README.md"), "src/new.js")
	if snap.MessageUUID != u1["uuid"] {
		t.Fatalf("the snapshot is of %s, want the head %s", snap.MessageUUID, u1["uuid"])
	}
	want := []session.SnapshotFile{
		{Path: "README.md", State: session.FilePresent, Hash: sha("readme"), Mode: 0o644, BackedUp: true},
		{Path: "src/app.js", State: session.FilePresent, Hash: sha("v1"), Mode: 0o644, BackedUp: true},
		{Path: "src/new.js", State: session.FileDeleted},
	}
	listed := listSnapshots(t, s)
	for i := range listed[0].Files {
		listed[0].Files[i].Size = nil
	}
	if len(listed) != 1 || !reflect.DeepEqual(listed[0].Files, want) || listed[0].Root != project {
		t.Fatalf("listed snapshots: %+v", listed)
	}

	// The agent edits, and the next prompt snapshots only what changed.
	sessiontest.Feed(t, s, sessiontest.Text("done"), sessiontest.Done("end_turn", ""))
	writeFiles(t, project, map[string]string{"src/app.js": "v2", "src/new.js": "new"})
	u2 := sessiontest.Prompt(t, s, "now v3")
	snapshotFiles(t, s, project, "src/app.js", "src/new.js")
	writeFiles(t, project, map[string]string{"src/app.js": "v3"})
	if err := os.Remove(filepath.Join(project, "README.md")); err != nil {
		t.Fatal(err)
	}

	restore := func(uuid string, opts snapshots.RestoreOptions) (snapshots.RestoreResult, map[string]string) {
		t.Helper()
		res, err := snapshots.Restore(s, uuid, opts)
		if err != nil {
			t.Fatalf("Restore(%s): %v", uuid, err)
		}
		return res, readTree(t, opts.Into)
	}
	into := filepath.Join(t.TempDir(), "not", "yet")
	res, got := restore(u1["uuid"].(string), snapshots.RestoreOptions{Into: into})
	if !reflect.DeepEqual(got, map[string]string{"src/app.js": "v1", "README.md": "readme"}) ||
		!reflect.DeepEqual(res.Written, []string{"README.md", "src/app.js"}) || len(res.LeftInPlace) != 0 {
		t.Fatalf("restored at the first prompt: %v %+v", got, res)
	}
	// At the second prompt README.md is as the first snapshot left it.
	_, got = restore(u2["uuid"].(string), snapshots.RestoreOptions{Into: into})
	if !reflect.DeepEqual(got, map[string]string{"src/app.js": "v2", "src/new.js": "new", "README.md": "readme"}) {
		t.Fatalf("restored at the second prompt: %v", got)
	}
	// Back at the first: new.js did not exist then. It is left in place unless asked.
	res, got = restore(u1["uuid"].(string), snapshots.RestoreOptions{Into: into})
	if got["src/new.js"] != "new" || !reflect.DeepEqual(res.LeftInPlace, []string{"src/new.js"}) {
		t.Fatalf("a file deleted at the message was not left in place: %v %+v", got, res)
	}
	res, got = restore(u1["uuid"].(string), snapshots.RestoreOptions{Into: into, RemoveDeleted: true})
	if _, ok := got["src/new.js"]; ok || !reflect.DeepEqual(res.Removed, []string{"src/new.js"}) {
		t.Fatalf("removeDeleted kept it: %v %+v", got, res)
	}

	// On a branch from the first prompt, the second prompt's snapshot does not count.
	if err := branches.Rewind(s, u1["uuid"].(string)); err != nil {
		t.Fatal(err)
	}
	u3 := sessiontest.Prompt(t, s, "another way")
	_, got = restore(u3["uuid"].(string), snapshots.RestoreOptions{Into: t.TempDir()})
	if !reflect.DeepEqual(got, map[string]string{"src/app.js": "v1", "README.md": "readme"}) {
		t.Fatalf("restored on the new branch: %v", got)
	}

	// All of it survives a reopen.
	id := s.ID()
	s2 := e.Reopen(t).Open(t, id)
	res, err := snapshots.Restore(s2, u2["uuid"].(string), snapshots.RestoreOptions{Into: t.TempDir()})
	if err != nil || len(res.Written) != 3 {
		t.Fatalf("after reopening: %+v %v", res, err)
	}
	if n := len(listSnapshots(t, s2)); n != 2 {
		t.Fatalf("%d snapshots after reopening", n)
	}
}

func TestRestoreKeepsModeAndEmptyFiles(t *testing.T) {
	_, s, project := projectSession(t, map[string]string{"run.sh": "#!/bin/sh\n", "empty": ""})
	if err := os.Chmod(filepath.Join(project, "run.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	u := sessiontest.Prompt(t, s, "go")
	snapshotFiles(t, s, project, "run.sh", "empty")
	into := t.TempDir()
	if _, err := snapshots.Restore(s, u["uuid"].(string), snapshots.RestoreOptions{Into: into}); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, into); !reflect.DeepEqual(got, map[string]string{"run.sh": "#!/bin/sh\n", "empty": ""}) {
		t.Fatalf("restored %v", got)
	}
	if fi, err := os.Stat(filepath.Join(into, "run.sh")); err != nil || fi.Mode().Perm() != 0o750 {
		t.Fatalf("run.sh restored with mode %v (%v), want 750", fi.Mode().Perm(), err)
	}
}

func TestRestoreRefusesPathsThatEscapeAndWritesNothing(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	u := sessiontest.Prompt(t, s, "go")
	outside := t.TempDir()
	good := session.SnapshotFile{Path: "a.txt", State: session.FilePresent, Content: []byte("a")}
	for _, bad := range []string{"../escaped.txt", "/tmp/abs.txt", "sub/../../escaped.txt", `..\escaped.txt`, "C:/escaped.txt"} {
		t.Run(bad, func(t *testing.T) {
			snap := session.FileSnapshot{MessageUUID: u["uuid"].(string), Files: []session.SnapshotFile{good,
				{Path: bad, State: session.FilePresent, Content: []byte("x")}}}
			if _, err := snapshots.Put(s, snap); err != nil {
				t.Fatal(err)
			}
			into := filepath.Join(outside, "into")
			_, err := snapshots.Restore(s, u["uuid"].(string), snapshots.RestoreOptions{Into: into})
			if !errors.Is(err, session.ErrPathEscape) {
				t.Fatalf("restoring %q: %v, want ErrPathEscape", bad, err)
			}
			if _, err := os.Stat(into); !os.IsNotExist(err) {
				t.Fatalf("the refused restore created %s", into)
			}
		})
	}
}

func TestRestoreRefusesSymlinksThatPointOut(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	u := sessiontest.Prompt(t, s, "go")
	project := t.TempDir()
	writeFiles(t, project, map[string]string{"a.txt": "a", "etc/passwd": "mine", "b.txt": "b"})
	snapshotFiles(t, s, project, "a.txt", "etc/passwd", "b.txt")

	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"passwd": "theirs"})
	for name, link := range map[string]struct {
		at     string
		target func(into string) string
	}{
		"a folder on the way": {"etc", func(string) string { return outside }},
		"a relative link out": {"etc", func(into string) string { return filepath.Join("..", filepath.Base(outside)) }},
		"the file itself":     {"b.txt", func(string) string { return filepath.Join(outside, "passwd") }},
		// os.Root, which writes, follows only relative links; an absolute one is refused
		// before anything is written, even when it leads inside.
		"an absolute link inside": {"etc", func(into string) string { return filepath.Join(into, "real") }},
	} {
		t.Run(name, func(t *testing.T) {
			into := t.TempDir()
			writeFiles(t, into, map[string]string{"real/keep": "k"})
			if err := os.Symlink(link.target(into), filepath.Join(into, link.at)); err != nil {
				t.Fatal(err)
			}
			_, err := snapshots.Restore(s, u["uuid"].(string), snapshots.RestoreOptions{Into: into})
			if !errors.Is(err, session.ErrPathEscape) {
				t.Fatalf("err = %v, want ErrPathEscape", err)
			}
			if got := readTree(t, outside); got["passwd"] != "theirs" || len(got) != 1 {
				t.Fatalf("the outside folder changed: %v", got)
			}
			if _, err := os.Lstat(filepath.Join(into, "a.txt")); !os.IsNotExist(err) {
				t.Fatal("a.txt was written before the escape was refused")
			}
		})
	}

	// A link that stays inside is followed.
	into := t.TempDir()
	writeFiles(t, into, map[string]string{"real/keep": "k"})
	if err := os.Symlink("real", filepath.Join(into, "etc")); err != nil {
		t.Fatal(err)
	}
	if _, err := snapshots.Restore(s, u["uuid"].(string), snapshots.RestoreOptions{Into: into}); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, filepath.Join(into, "real")); got["passwd"] != "mine" || got["keep"] != "k" {
		t.Fatalf("through an inside link: %v", got)
	}
}

func TestSnapshotRefusesWhatIsNotAFileInsideTheRoot(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "go")
	project := t.TempDir()
	outside := t.TempDir()
	writeFiles(t, project, map[string]string{"dir/x": "x"})
	writeFiles(t, outside, map[string]string{"secret": "s"})
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(project, "leak")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want error
	}{
		{"../x", session.ErrPathEscape},
		{filepath.Join(outside, "secret"), session.ErrPathEscape},
		{"leak", session.ErrPathEscape},
		{"dir", session.ErrInvalidArgument},
	} {
		if _, err := snapshots.Take(s, []string{"dir/x", c.path}, snapshots.TakeOptions{Root: project}); !errors.Is(err, c.want) {
			t.Errorf("Take(%q) = %v, want %v", c.path, err, c.want)
		}
	}
	if n := len(listSnapshots(t, s)); n != 0 {
		t.Fatalf("refused snapshots recorded %d", n)
	}
	if _, err := snapshots.Take(s, []string{"x"}, snapshots.TakeOptions{Root: project, MessageUUID: "nope"}); !errors.Is(err, session.ErrMessageNotFound) {
		t.Errorf("a snapshot of an unknown message: %v", err)
	}
	if _, err := snapshots.Take(e.Create(t), []string{"x"}, snapshots.TakeOptions{Root: project}); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("a snapshot in a session with no messages: %v", err)
	}
}

func TestPutFileSnapshotForImports(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	u := sessiontest.Prompt(t, s, "go")
	source := json.RawMessage(`{"backupFileName":"277317c00cb68289@v1","version":1,"backupTime":"2025-10-26T10:39:04.157Z"}`)
	snap := session.FileSnapshot{ID: "cc-snapshot-1", MessageUUID: u["uuid"].(string), IsUpdate: true,
		Source: json.RawMessage(`{"messageId":"7308ae4d"}`),
		Files: []session.SnapshotFile{
			{Path: "apps/NavUser.tsx", State: session.FilePresent, Source: source},
			{Path: "apps/NavUser.test.tsx", State: session.FileDeleted},
		}}
	for i := 0; i < 2; i++ { // an import run twice
		if _, err := snapshots.Put(s, snap); err != nil {
			t.Fatal(err)
		}
	}
	list := listSnapshots(t, s)
	if len(list) != 1 || list[0].ID != "cc-snapshot-1" || !list[0].IsUpdate || string(list[0].Source) != `{"messageId":"7308ae4d"}` {
		t.Fatalf("listed: %+v", list)
	}
	if f := list[0].Files[1]; f.Path != "apps/NavUser.tsx" || f.BackedUp || string(f.Source) != string(source) {
		t.Fatalf("the backed-up file without its content: %+v", f)
	}
	into := t.TempDir()
	if _, err := snapshots.Restore(s, u["uuid"].(string), snapshots.RestoreOptions{Into: into}); !errors.Is(err, session.ErrBackupMissing) {
		t.Fatalf("restoring a file whose backup was not imported: %v", err)
	}
	if got := readTree(t, into); len(got) != 0 {
		t.Fatalf("wrote %v", got)
	}
	bad := snap
	bad.ID, bad.Files = "", []session.SnapshotFile{{Path: "a", State: "gone"}}
	if _, err := snapshots.Put(s, bad); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("a bad state: %v", err)
	}
}

func TestForkCarriesTheSnapshotsOfItsHistory(t *testing.T) {
	_, s, project := projectSession(t, map[string]string{"f": "one"})
	u1 := sessiontest.Prompt(t, s, "first")
	snapshotFiles(t, s, project, "f")
	writeFiles(t, project, map[string]string{"f": "two"})
	sessiontest.Prompt(t, s, "second")
	snapshotFiles(t, s, project, "f")

	f := sessiontest.Must(branches.Fork(s, u1["uuid"].(string)))
	if list := listSnapshots(t, f); len(list) != 1 || list[0].MessageUUID != u1["uuid"] {
		t.Fatalf("the fork's snapshots: %+v", list)
	}
	into := t.TempDir()
	if _, err := snapshots.Restore(f, u1["uuid"].(string), snapshots.RestoreOptions{Into: into}); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, into); got["f"] != "one" {
		t.Fatalf("restored from the fork: %v", got)
	}
}
