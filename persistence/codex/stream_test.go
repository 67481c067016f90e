package codex

import (
	"io"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

func TestStreamGivesWhatReadGives(t *testing.T) {
	const path = "rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl"
	importcheck.SameAsWhole(t, fixtures.Files("codex"), 16<<10,
		func(r io.Reader) (*transcript.File, error) { return Read(r, path, nil) },
		func(r io.ReadSeeker, sink transcript.Sink) ([]transcript.Skipped, error) {
			return Stream(r, path, sink, nil)
		})
}
