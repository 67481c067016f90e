package codex

import (
	"bytes"
	"io"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

// sameAsRead checks that streaming each of files gives what reading it whole gives.
func sameAsRead(t *testing.T, files [][]byte) {
	const path = "rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl"
	importcheck.SameAsWhole(t, files, 16<<10,
		func(r io.Reader) (*transcript.File, error) { return Read(r, path, nil) },
		func(r io.ReadSeeker, sink transcript.Sink) ([]transcript.Skipped, error) {
			return Stream(r, path, sink, nil)
		})
}

func TestStreamGivesWhatReadGives(t *testing.T) { sameAsRead(t, fixtures.Files("codex")) }

// Every line of these files occurs twice, a whole rollout apart: the stream counts only the
// lines its first reading found more than once, and must give them the uuids Read gives.
func TestStreamNumbersLinesThatRepeatAsReadDoes(t *testing.T) {
	var doubled [][]byte
	for _, data := range fixtures.Files("codex") {
		once := append(bytes.TrimRight(data, "\n"), '\n')
		doubled = append(doubled, append(append([]byte(nil), once...), once...))
	}
	sameAsRead(t, doubled)
}
