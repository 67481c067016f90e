package gemini

import (
	"bytes"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
)

// FuzzRead reads random chat files, seeded with both forms: reading never fails on
// content (damaged lines and messages are skipped and reported), and what it reads
// imports.
func FuzzRead(f *testing.F) {
	f.Add([]byte(chatJSONL))
	f.Add([]byte(legacyJSON))
	m := importcheck.Store(f)
	f.Fuzz(func(t *testing.T, text []byte) {
		file, err := Read(bytes.NewReader(text), "session-fuzz.jsonl", nil)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		importcheck.Import(t, m, file)
	})
}
