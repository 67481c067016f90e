package claudecode

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

func TestStreamGivesWhatReadGives(t *testing.T) {
	const path = "/home/u/.claude/projects/p/s.jsonl"
	whole := func(r io.Reader) (*transcript.File, error) {
		tr, err := Read(r, path, nil, nil)
		if err != nil {
			return nil, err
		}
		tr.LoadBackups() // as an import does; Stream does it for each batch
		return &tr.File, nil
	}
	stream := func(r io.ReadSeeker, sink transcript.Sink) ([]transcript.Skipped, error) {
		_, skipped, err := Stream(r, path, nil, sink, nil)
		return skipped, err
	}
	importcheck.SameAsWhole(t, fixtures.Files("claude_code"), 16<<10, whole, stream)
}

func TestStreamReturnsTheSubagentCallsReadReturns(t *testing.T) {
	files := fixtures.Files("claude_code")
	found := 0
	for _, data := range files {
		tr, err := Read(bytes.NewReader(data), "s.jsonl", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		calls, _, err := Stream(bytes.NewReader(data), "s.jsonl", nil, &importcheck.Collected{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) == 0 && len(tr.AgentCalls) == 0 {
			continue
		}
		found++
		if !reflect.DeepEqual(calls, tr.AgentCalls) {
			t.Errorf("Stream's subagent calls %v, Read's %v", calls, tr.AgentCalls)
		}
	}
	if found == 0 && len(files) > 0 {
		t.Error("no fixture ran a subagent: the test checks nothing")
	}
}
