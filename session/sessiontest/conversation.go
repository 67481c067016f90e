package sessiontest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// Conversation returns n messages of a coding session as API messages: turns of a prompt,
// an assistant reply with signed thinking and a tool call (file reads, shell, search, in
// turn), its result (outputs of 200 to 6,000 characters), and a closing reply. With
// interrupted, it ends in a tool call that has no result, as a crash leaves it.
func Conversation(n int, interrupted bool) []map[string]any {
	var msgs []map[string]any
	tools := []string{"Read", "Bash", "Grep", "Edit"}
	for turn := 0; len(msgs) < n; turn++ {
		id := fmt.Sprintf("toolu_%06d", turn)
		tool := tools[turn%len(tools)]
		msgs = append(msgs,
			map[string]any{"role": "user", "content": fmt.Sprintf("Turn %d: please look at src/module_%d.go and fix the failing test", turn, turn%50)},
			map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "thinking", "thinking": fmt.Sprintf("I should use %s on module %d.", tool, turn%50), "signature": fmt.Sprintf("sig%06d", turn)},
				map[string]any{"type": "text", "text": "Let me check that."},
				map[string]any{"type": "tool_use", "id": id, "name": tool, "input": map[string]any{"file_path": fmt.Sprintf("src/module_%d.go", turn%50)}},
			}},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": id, "content": toolOutput(turn)},
			}},
			map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "text", "text": fmt.Sprintf("I'll use a table-driven test for module %d instead of the old one. Done.", turn%50)},
			}},
		)
	}
	msgs = msgs[:n]
	if interrupted {
		last := len(msgs) - 1
		msgs[last] = map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "text", "text": "Running the tests now."},
			map[string]any{"type": "tool_use", "id": "toolu_interrupted", "name": "Bash", "input": map[string]any{"command": "go test ./..."}},
		}}
		if msgs[last-1]["role"] == "assistant" {
			msgs[last-1] = map[string]any{"role": "user", "content": "Run the tests."}
		}
	}
	return msgs
}

// toolOutput is a tool's output of a size that varies with the turn.
func toolOutput(turn int) string {
	lines := 5 + (turn*37)%120
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "%04d\tfunc handler%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, i, turn)
	}
	return b.String()
}

// WithMessages creates a session holding msgs.
func WithMessages(t testing.TB, e *Env, msgs []map[string]any) *session.Session {
	t.Helper()
	s := e.Create(t)
	raw, _ := json.Marshal(msgs)
	if err := s.RestoreMessages(raw); err != nil {
		t.Fatalf("RestoreMessages: %v", err)
	}
	return s
}
