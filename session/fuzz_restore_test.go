package session_test

import (
	"bytes"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

// restoreSeeds are message arrays: the messages of each real Claude Code transcript, and
// literals for the edges.
func restoreSeeds() [][]byte {
	seeds := [][]byte{
		[]byte(`[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"yo"},{"type":"tool_use","id":"t","name":"n","input":{}}],"usage":{"input_tokens":1,"output_tokens":2}},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok","is_error":false}]}]`),
		[]byte(`[{"role":"assistant","content":[{"type":"thinking","thinking":"é","signature":"s"},{"type":"redacted_thinking","data":"x"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}},{"type":"mystery","x":[1]}]}]`),
		[]byte(`[]`), []byte(`[{}]`), []byte(`{"role":"user"}`),
	}
	var msgs []json.RawMessage
	for _, line := range fixtures.Lines("claude_code") {
		var rec struct {
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal(line, &rec) == nil && len(rec.Message) > 0 {
			msgs = append(msgs, rec.Message)
		}
	}
	var arrays [][]byte
	for len(msgs) > 0 {
		n := min(len(msgs), 8)
		arrays = append(arrays, mustArray(msgs[:n]))
		msgs = msgs[n:]
	}
	return append(seeds, fixtures.Spread(arrays, 24)...)
}

func mustArray(items []json.RawMessage) []byte {
	b, err := json.Marshal(items)
	if err != nil {
		panic(err)
	}
	return b
}

// FuzzRestoreMessages restores random message arrays into new sessions. A refusal must be
// a caller error that stores nothing; what is accepted must read back, and restoring what
// messages() gave back must give the same messages again.
func FuzzRestoreMessages(f *testing.F) {
	for _, s := range restoreSeeds() {
		f.Add(s)
	}
	e := fuzzEnv(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		s := e.Create(t)
		defer s.Close()
		if err := s.RestoreMessages(raw); err != nil {
			if !isCallerError(err) {
				t.Fatalf("RestoreMessages = %v, not a caller error", err)
			}
			if got := checkMessagesJSON(t, s); string(got) != "[]" {
				t.Fatalf("a refused restore stored %s", got)
			}
			return
		}
		first := checkMessagesJSON(t, s)
		again := e.Create(t)
		defer again.Close()
		if err := again.RestoreMessages(first); err != nil {
			t.Fatalf("restoring messages() again: %v\n%s", err, first)
		}
		if second := checkMessagesJSON(t, again); !bytes.Equal(first, second) {
			t.Fatalf("messages() changed by a second restore:\n%s\n->\n%s", first, second)
		}
	})
}
