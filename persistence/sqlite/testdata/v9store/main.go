// Command v9store writes v9.db, a small store in the schema of migration 9 (the storage
// model before message bodies became the only record of a completed message; the
// repository keeps it as its `sqlite3 .dump`, v9.sql, not as the file), and
// v9-messages.json, what Messages(false) returned for each of its sessions when it was
// written. It was run once from a checkout of the commit before migration 10
// (5554c94: `go run ./persistence/sqlite/testdata/v9store persistence/sqlite/testdata`);
// TestMigrationFromV9 opens a copy of the store with today's code. Run with a newer
// checkout it would write a newer schema, so it is kept as the record of how the file was
// made, not to be run again.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func main() {
	dir := os.Args[1]
	path := filepath.Join(dir, "v9.db")
	os.Remove(path)
	s, err := sqlite.Open(path)
	check(err)
	m := session.NewManager(s)
	want := map[string]json.RawMessage{}

	a, err := m.Create(session.CreateOptions{ProjectPath: "/work/alpha"})
	check(err)
	_, err = a.AppendUserMessage([]byte(`"read the manifest → please ✓"`))
	check(err)
	ingest(a,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_1", Model: "claude-x", RequestID: "req_1"},
		stream.Chunk{Kind: stream.ChunkThinking, Text: "the manifest is large"},
		stream.Chunk{Kind: stream.ChunkSignature, Text: "c2ln"},
		stream.Chunk{Kind: stream.ChunkText, Text: "Reading the zeppelin manifest."},
		stream.Chunk{Kind: stream.ChunkToolUse, ID: "toolu_1", Name: "Read", JSON: []byte(`{"path":"manifest.txt"}`)},
		stream.Chunk{Kind: stream.ChunkDone, StopReason: "tool_use", Usage: []byte(`{"input_tokens":12,"output_tokens":7}`)},
	)
	// Over BlobThreshold, twice: a blob hole in two bodies, stored once.
	large := strings.Repeat("cargo line → dirigible ✓\n", sqlite.BlobThreshold/20)
	result, _ := json.Marshal(large)
	ingest(a, stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "toolu_1", JSON: result})
	ingest(a,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_2"},
		stream.Chunk{Kind: stream.ChunkToolUse, ID: "toolu_2", Name: "Read", JSON: []byte(`{"path":"manifest.txt"}`)},
		stream.Chunk{Kind: stream.ChunkDone, StopReason: "tool_use"},
		stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "toolu_2", JSON: result},
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_3"},
		stream.Chunk{Kind: stream.ChunkText, Text: "The manifest lists one dirigible, "},
	)
	check(s.Flush())
	// Cut off by the close: an interrupted message whose last block is a partial checkpoint.
	a.Close()

	b, err := m.Create(session.CreateOptions{ProjectPath: "/work/beta"})
	check(err)
	_, err = b.AppendUserMessage([]byte(`"say hello"`))
	check(err)
	ingest(b,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_b"},
		stream.Chunk{Kind: stream.ChunkText, Text: "hello from the quokka"},
		stream.Chunk{Kind: stream.ChunkDone, StopReason: "end_turn"},
	)
	b.Close()
	check(s.Flush())

	for _, id := range []string{a.ID(), b.ID()} {
		sess, err := m.Open(id)
		check(err)
		raw, err := sess.Messages(false)
		check(err)
		want[id] = raw
		sess.Close()
	}
	check(m.Close())
	out, err := json.MarshalIndent(want, "", "  ")
	check(err)
	check(os.WriteFile(filepath.Join(dir, "v9-messages.json"), out, 0o644))
	fmt.Println("wrote", path)
}

func ingest(s *session.Session, chunks ...stream.Chunk) {
	for _, c := range chunks {
		check(s.Ingest(c))
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
