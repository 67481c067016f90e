package interop

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func touch(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSubagentTranscriptsGoAfterTheirParent(t *testing.T) {
	dir := t.TempDir()
	cc := `{"type":"user"}` + "\n"
	for _, p := range []string{
		"proj/s1.jsonl", "proj/s1/subagents/agent-a1.jsonl", "proj/s1/subagents/agent-a2.jsonl",
		"flat/x__s2.jsonl", "flat/x__s2__subagents__agent-b1.jsonl",
		"orphan/s3/subagents/agent-c1.jsonl", "notes.txt",
	} {
		touch(t, filepath.Join(dir, p), cc)
	}
	files, err := findFiles(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.path)
		got[rel] = []string{}
		for _, s := range f.subagents {
			r, _ := filepath.Rel(dir, s.path)
			got[rel] = append(got[rel], r)
		}
	}
	want := map[string][]string{
		"proj/s1.jsonl":                      {"proj/s1/subagents/agent-a1.jsonl", "proj/s1/subagents/agent-a2.jsonl"},
		"flat/x__s2.jsonl":                   {"flat/x__s2__subagents__agent-b1.jsonl"},
		"orphan/s3/subagents/agent-c1.jsonl": {},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files = %v\nwant %v", got, want)
	}

	one, err := findFiles(filepath.Join(dir, "proj/s1.jsonl"), "")
	if err != nil || len(one) != 1 || len(one[0].subagents) != 2 {
		t.Errorf("a parent given alone brings %v (err %v), want its 2 subagents", one, err)
	}
}

func TestEachFileSaysItsFormat(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"cc.jsonl":     "// a comment\n" + `{"type":"summary","summary":"x"}` + "\n",
		"codex.jsonl":  `{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}` + "\n",
		"ours.jsonl":   `{"format":"sessionkeep","version":1,"session":{"id":"x"}}` + "\n",
		"ours.json":    "{\n  \"format\": \"sessionkeep\",\n  \"envelopes\": []\n}\n",
		"empty.jsonl":  "\n\n",
		"broken.jsonl": "{\"type\":\n",
	}
	want := map[string]string{"cc.jsonl": FormatClaudeCode, "codex.jsonl": FormatCodex, "ours.jsonl": FormatJSONL,
		"ours.json": FormatJSON, "empty.jsonl": "", "broken.jsonl": FormatClaudeCode}
	for name, content := range cases {
		touch(t, filepath.Join(dir, name), content)
		if got := detect(filepath.Join(dir, name)); got != want[name] {
			t.Errorf("%s reads as %q, want %q", name, got, want[name])
		}
	}
}
