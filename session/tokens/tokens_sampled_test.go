package tokens

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

// TestSampledCountsMatchExactOnRealOutputs counts every text of the real Claude Code
// transcripts that is long enough to be sampled (tool outputs, file contents) both ways: the
// sampled count of each stays within 15% of the exact one, and their total within 3%.
func TestSampledCountsMatchExactOnRealOutputs(t *testing.T) {
	texts := longTexts(t)
	if len(texts) < 20 {
		t.Fatalf("only %d texts over %d bytes in the fixtures; the check needs real outputs", len(texts), sampledAbove)
	}
	var exact, sampled int64
	worst := 0.0
	for _, s := range texts {
		e, c := exactCount(s), CountText(s)
		exact += e
		sampled += c
		worst = max(worst, math.Abs(float64(c-e))/float64(e))
		if math.Abs(float64(c-e)) > 0.15*float64(e) {
			t.Errorf("a %d-byte text: sampled %d tokens, exact %d", len(s), c, e)
		}
	}
	ratio := float64(sampled) / float64(exact)
	t.Logf("%d texts: sampled %d tokens, exact %d (×%.3f); worst single text off by %.1f%%", len(texts), sampled, exact, ratio, 100*worst)
	if math.Abs(ratio-1) > 0.03 {
		t.Errorf("sampled total is ×%.3f of exact", ratio)
	}
}

// longTexts returns the string values over sampledAbove bytes found anywhere in the real
// Claude Code transcripts and Codex rollouts.
func longTexts(t testing.TB) []string {
	t.Helper()
	return realStrings(t, sampledAbove+1)
}

// realStrings returns the string values of at least minLen bytes found anywhere in the real
// Claude Code transcripts and Codex rollouts.
func realStrings(t testing.TB, minLen int) []string {
	t.Helper()
	real := filepath.Dir(realTranscripts)
	var files []string
	filepath.WalkDir(real, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			files = append(files, path)
		}
		return nil
	})
	var out []string
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var v any
			if !strings.HasPrefix(sc.Text(), "//") && json.Unmarshal(sc.Bytes(), &v) == nil {
				collectLong(v, minLen, &out)
			}
		}
		f.Close()
	}
	return out
}

func collectLong(v any, minLen int, out *[]string) {
	switch v := v.(type) {
	case string:
		if len(v) >= minLen {
			*out = append(*out, v)
		}
	case []any:
		for _, e := range v {
			collectLong(e, minLen, out)
		}
	case map[string]any:
		for _, e := range v {
			collectLong(e, minLen, out)
		}
	}
}
