package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestFileHistorySnapshotPathsAreMadeRelativeToTheWorkingFolder(t *testing.T) {
	tr := read(t, lines(
		`{"type":"file-history-snapshot","messageId":"m1","snapshot":{"messageId":"m1","trackedFileBackups":{"/work/app/a.go":{"backupFileName":"aa@v1","version":1,"backupTime":"2025-10-26T10:39:04.157Z"},"/etc/passwd":{"backupFileName":null,"version":1,"backupTime":"2025-10-26T10:39:04.157Z"},"b/c.go":{"backupFileName":"bb@v1","version":1,"backupTime":"2025-10-26T10:39:04.157Z"}},"timestamp":"2025-10-26T10:38:30.700Z"},"isSnapshotUpdate":false}`,
		`{"type":"user","uuid":"m1","sessionId":"s1","cwd":"/work/app","message":{"role":"user","content":"hi"}}`,
	), nil)
	snap := tr.Records[0].FileSnapshot
	if snap == nil || snap.ID != tr.Records[0].UUID || snap.MessageUUID != "m1" || snap.Root != "/work/app" || snap.IsUpdate {
		t.Fatalf("snapshot = %+v", snap)
	}
	got := map[string]string{}
	for _, f := range snap.Files {
		got[f.Path] = f.State
	}
	want := map[string]string{"a.go": session.FilePresent, "/etc/passwd": session.FileDeleted, "b/c.go": session.FilePresent}
	if len(got) != len(want) || got["a.go"] != want["a.go"] || got["/etc/passwd"] != want["/etc/passwd"] || got["b/c.go"] != want["b/c.go"] {
		t.Fatalf("files = %v, want %v", got, want)
	}
	if tr.Records[1].FileSnapshot != nil {
		t.Fatal("a user record has a file snapshot")
	}

	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "s1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s1", "aa@v1"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr.LoadBackups("", filepath.Join(dir, "missing"), dir)
	for _, f := range snap.Files {
		wantContent := map[string]string{"a.go": "package a\n"}[f.Path]
		if string(f.Content) != wantContent || (f.Content != nil) != (f.Path == "a.go") {
			t.Errorf("%s: content %q", f.Path, f.Content)
		}
	}
}

func TestFileHistoryDirIsBesideTheProjectsFolder(t *testing.T) {
	for path, want := range map[string]string{
		"/home/u/.claude/projects/-home-u-app/s1.jsonl":                    "/home/u/.claude/file-history",
		"/home/u/.claude/projects/-home-u-app/s1/subagents/agent-a1.jsonl": "/home/u/.claude/file-history",
		"/tmp/fixtures/s1.jsonl":                                           "",
	} {
		if got := FileHistoryDir(path); got != want {
			t.Errorf("FileHistoryDir(%s) = %q, want %q", path, got, want)
		}
	}
}
