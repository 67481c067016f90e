package codex

import (
	"bytes"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

// BenchmarkReadRealRollouts reads the real Codex rollouts: the Codex share of
// persistence/interop's BenchmarkParseReal, for the converter's CPU and allocations.
func BenchmarkReadRealRollouts(b *testing.B) {
	files := fixtures.Files("codex")
	if len(files) == 0 {
		b.Skip("the real fixtures are not beside the repository")
	}
	var size int64
	for _, f := range files {
		size += int64(len(f))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			file, err := Read(bytes.NewReader(f), "rollout-bench.jsonl", nil)
			if err != nil || len(file.Records) == 0 {
				b.Fatalf("Read: %v, %d records", err, len(file.Records))
			}
		}
	}
}
