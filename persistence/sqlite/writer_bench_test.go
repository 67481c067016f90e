package sqlite

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// BenchmarkWriterW1Like applies W1's shape of Ops to a new store and syncs: 500 turns of a
// prompt, a reply starting a tool call (with its token tracker) and a 14 KB tool result,
// each message begun, its blocks put and ended. It is the writer's part of W1 without the
// JS thread (bench/README.md, "Issue 16, round 7").
func BenchmarkWriterW1Like(b *testing.B) {
	output := strings.Repeat(`     1\u2192const x = f(\"a\", 1);\n`, 400)
	dir := b.TempDir()
	run := 0
	for b.Loop() {
		run++
		s, err := Open(filepath.Join(dir, fmt.Sprint(run, ".db")))
		if err != nil {
			b.Fatal(err)
		}
		const id = "w1"
		s.Apply(session.CreateSession{Info: newInfo(id)})
		var tracker session.TokenTracker
		for turn := int64(0); turn < 500; turn++ {
			seq := 3 * turn
			call := fmt.Sprintf("toolu_%04d", turn)
			tracker.Add(session.Usage{InputTokens: 3, OutputTokens: 120, CacheReadInputTokens: 20_000})
			s.Apply(
				begin(id, seq),
				session.PutBlock{SessionID: id, Seq: seq, JSON: []byte(`{"type":"text","text":"Look at the file, please."}`)},
				end(id, seq),
				begin(id, seq+1),
				session.PutBlock{SessionID: id, Seq: seq + 1, JSON: []byte(`{"type":"text","text":"Reading it."}`)},
				session.PutBlock{SessionID: id, Seq: seq + 1, Index: 1, ToolUseID: call,
					JSON: []byte(`{"type":"tool_use","id":"` + call + `","name":"Read","input":{"file_path":"src/a.ts"}}`)},
				end(id, seq+1),
				session.SetTracker{SessionID: id, Tracker: tracker},
				begin(id, seq+2),
				session.PutBlock{SessionID: id, Seq: seq + 2,
					JSON: []byte(`{"type":"tool_result","tool_use_id":"` + call + `","content":"` + output + `"}`)},
				end(id, seq+2),
			)
		}
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
