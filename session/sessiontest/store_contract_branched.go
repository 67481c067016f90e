package sessiontest

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
)

// branchedContract checks that the next process reads and continues a rewound session on the
// branch that ends at its head: its tail is the branch's last record, not the last one
// written, and a result for the tool call the rewind left off is refused, though that call
// is the newest record of the main chain (an open must not learn it as a call of the last
// turn, nor a tail read past the branch, because the store said the session never branched).
func branchedContract(t *testing.T, b Backend) {
	t.Run("a rewound session is read and continued on its branch by the next process", func(t *testing.T) {
		name := b.Fresh(t)
		s, err := session.NewManager(b.Open(t, name)).Create(session.CreateOptions{Title: "rewound"})
		if err != nil {
			t.Fatal(err)
		}
		Prompt(t, s, "one")
		Feed(t, s, Start("msg_1"), Text("first"), Done("end_turn", ""))
		envs := Envelopes(t, s)
		first := envs[len(envs)-1]["uuid"].(string)
		Prompt(t, s, "two")
		Feed(t, s, Start("msg_2"), ToolUse("toolu_left", "Read", `{"path":"a.go"}`), Done("tool_use", ""))
		if err := branches.Rewind(s, first); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}

		again, err := session.NewManager(b.Open(t, name)).Open(s.ID())
		if err != nil {
			t.Fatal(err)
		}
		var tail []map[string]any
		err = again.EncodeParts(true, 1, session.Whole, nil, func(part []byte) ([]byte, error) {
			return nil, json.Unmarshal(part, &tail)
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(tail) != 1 || tail[0]["uuid"] != first {
			t.Fatalf("the tail of 1 after the rewind is %v, want the record %s the rewind went back to", tail, first)
		}
		if err := again.Ingest(ToolResult("toolu_left", `"a"`)); !errors.Is(err, session.ErrUnknownToolUse) {
			t.Fatalf("a result for the call the rewind left off: %v, want ErrUnknownToolUse", err)
		}
	})
}
