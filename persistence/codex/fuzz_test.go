package codex

import (
	"bytes"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

// FuzzRead reads random rollouts, seeded with runs of lines of the real ones: reading
// never fails on content (damaged lines are skipped and reported), and what it reads
// imports.
func FuzzRead(f *testing.F) {
	f.Add([]byte(rollout))
	for _, seed := range fixtures.Windows("codex", 6) {
		f.Add(seed)
	}
	m := importcheck.Store(f)
	f.Fuzz(func(t *testing.T, text []byte) {
		file, err := Read(bytes.NewReader(text), "rollout-fuzz.jsonl", nil)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		importcheck.Import(t, m, file)
	})
}
