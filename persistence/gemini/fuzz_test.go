package gemini

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
)

// FuzzRead reads random chat files, seeded with the three forms and a logs.json: reading
// never fails on the content of a chat file (damaged lines and messages are skipped and
// reported), only on a damaged checkpoint, and what it reads imports; the same bytes read
// as a logs.json fail only when they are not a JSON array, and what they give imports.
func FuzzRead(f *testing.F) {
	f.Add([]byte(chatJSONL))
	f.Add([]byte(legacyJSON))
	f.Add([]byte(checkpointJSON))
	f.Add([]byte(logs))
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
		sessions, err := ReadLogs(bytes.NewReader(text), LogsName, nil)
		if err != nil && bytes.HasPrefix(bytes.TrimSpace(text), []byte("[")) && json.Valid(text) {
			t.Fatalf("ReadLogs of a JSON array: %v", err)
		}
		for _, s := range sessions {
			importcheck.Import(t, m, s)
		}
	})
}
