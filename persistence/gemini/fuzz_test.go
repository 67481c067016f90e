package gemini

import (
	"bytes"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
)

// FuzzRead reads random chat files, seeded with the three forms: reading never fails on
// the content of a chat file (damaged lines and messages are skipped and reported), only
// on a damaged checkpoint, and what it reads imports.
func FuzzRead(f *testing.F) {
	f.Add([]byte(chatJSONL))
	f.Add([]byte(legacyJSON))
	f.Add([]byte(checkpointJSON))
	m := importcheck.Store(f)
	f.Fuzz(func(t *testing.T, text []byte) {
		file, err := Read(bytes.NewReader(text), "session-fuzz.jsonl", nil)
		if err != nil {
			if bytes.HasPrefix(bytes.TrimSpace(text), []byte("[")) {
				return // a damaged checkpoint: one document, so the file is reported whole
			}
			t.Fatalf("Read: %v", err)
		}
		importcheck.Import(t, m, file)
	})
}
