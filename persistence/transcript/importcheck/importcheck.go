// Package importcheck is the check the fuzz targets of the transcript readers share: what
// a reader made of any input must import into a real store and read back as messages.
package importcheck

import (
	"path/filepath"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/importing"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Store opens one store for the whole fuzz target (in its temporary folder), closed at its
// end: opening SQLite for each input would make the fuzzer far slower.
func Store(f *testing.F) *session.Manager {
	st, err := sqlite.Open(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatalf("sqlite.Open: %v", err)
	}
	m := session.NewManager(st)
	m.CountTokens(tokens.NewCounter(st))
	f.Cleanup(func() { m.Close() })
	return m
}

// Import checks what a reader returned for one input: every record's blocks pass
// CheckBlock, and the records import into m, whose messages() of the session are then a
// JSON array. Sessions are named by the reader from the input, so repeated inputs import
// into the same session, as importing a file twice does.
func Import(t *testing.T, m *session.Manager, file *transcript.File) {
	t.Helper()
	for i, r := range file.Records {
		if r.UUID == "" {
			t.Fatalf("record %d has no uuid", i)
		}
		for j, b := range r.Blocks {
			if _, err := blocks.CheckBlock(b.JSON); err != nil {
				t.Fatalf("record %d block %d: %v\n%s", i, j, err, b.JSON)
			}
		}
	}
	if file.Target.Info.ID == "" {
		if len(file.Records) > 0 {
			t.Fatalf("%d records with no session id", len(file.Records))
		}
		return
	}
	if _, err := importing.Import(m, file.Target, file.Records); err != nil {
		t.Fatalf("Import: %v", err)
	}
	s, err := m.Open(file.Target.Info.ID)
	if err != nil {
		t.Fatalf("Open(%q): %v", file.Target.Info.ID, err)
	}
	defer s.Close()
	raw, err := s.Messages(true)
	if err != nil {
		t.Fatalf("Messages: %v", err)
	}
	if !json.Valid(raw) || raw[0] != '[' {
		t.Fatalf("messages are not a JSON array: %s", raw)
	}
}

// BlockTypes returns the type of each block, for the readers' tests to say what a record
// holds.
func BlockTypes(list []session.RecordBlock) []string {
	out := make([]string, len(list))
	for i, b := range list {
		var v struct {
			Type string `json:"type"`
		}
		json.Unmarshal(b.JSON, &v)
		out[i] = v.Type
	}
	return out
}
