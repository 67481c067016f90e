package claudecode

import (
	"bytes"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

// FuzzRead reads random transcripts, seeded with runs of lines of the real ones: reading
// never fails on content (damaged lines are skipped and reported), and what it reads
// imports.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"type":"user","uuid":"u1","sessionId":"s1","message":{"role":"user","content":"hi"},"timestamp":"2025-01-01T00:00:00Z"}` + "\n" +
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"prompt":"p"}}]}}` + "\n" +
		`{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"toolUseResult":{"stdout":"ok"}}` + "\n"))
	for _, seed := range fixtures.Windows("claude_code", 4) {
		f.Add(seed)
	}
	m := importcheck.Store(f)
	f.Fuzz(func(t *testing.T, text []byte) {
		tr, err := Read(bytes.NewReader(text), "fuzz.jsonl", nil, nil)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		importcheck.Import(t, m, &tr.File)
	})
}
