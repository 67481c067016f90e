package redact_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/redact"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

const key = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf"

// stored returns the blocks the store holds of the session's first message, and the
// session's count of redactions, without asking the live session.
func stored(t *testing.T, e *sessiontest.Env, id string) (blocks []string, redactions int64) {
	t.Helper()
	if err := e.Store.Sync(); err != nil {
		t.Fatal(err)
	}
	err := e.Store.ScanMessages(id, func(m *session.StoredMessage) error {
		if blocks == nil {
			for _, b := range m.Blocks {
				blocks = append(blocks, string(b))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return blocks, sessiontest.Must(e.Store.LoadSession(id)).Info.Redactions
}

func TestAManagerStoresToolBlocksRedactedAndCountsThem(t *testing.T) {
	e := sessiontest.NewEnv(t)
	e.Mgr.Redact(sessiontest.Must(redact.New(redact.Options{Builtin: true})))
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("mentions "+key),
		sessiontest.ToolUse("toolu_1", "Bash", `{"cmd":"curl -H 'x-api-key: `+key+`'"}`), sessiontest.Done("tool_use", ""))
	blocks, n := stored(t, e, s.ID())
	if len(blocks) != 2 || !strings.Contains(blocks[0], key) || strings.Contains(blocks[1], key) ||
		!strings.Contains(blocks[1], "[REDACTED:anthropic_key]") || n != 1 {
		t.Fatalf("stored %q with %d redactions; want the text as it came and the tool call's key replaced, once", blocks, n)
	}
}

// A tool call streaming in pieces is checkpointed as it comes unless the Manager redacts:
// half a secret would not match, so then it is stored once complete.
func TestAStreamingToolCallIsCheckpointedOnlyWithoutRedaction(t *testing.T) {
	for _, c := range []struct {
		name        string
		redactor    session.Redactor
		checkpoints bool
	}{
		{"no redactor", nil, true},
		{"redactor", sessiontest.Must(redact.New(redact.Options{Builtin: true})), false},
	} {
		e := sessiontest.NewEnv(t)
		e.Mgr.Redact(c.redactor)
		s := e.Create(t)
		sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.ToolUseStart("toolu_1", "Bash"),
			sessiontest.ToolUseDelta(`{"cmd":"echo `+key[:20]))
		time.Sleep(3 * session.CheckpointInterval) // only the checkpoint timer can write it
		if blocks, _ := stored(t, e, s.ID()); (len(blocks) == 1) != c.checkpoints {
			t.Errorf("%s: stored while streaming %q, want a checkpoint: %v", c.name, blocks, c.checkpoints)
		}
	}
}

// appendUserMessage returns the message as it is stored: a tool result's secret replaced,
// never the unredacted blocks that the store does not hold.
func TestAUserMessageComesBackAsStoredRedacted(t *testing.T) {
	e := sessiontest.NewEnv(t)
	e.Mgr.Redact(sessiontest.Must(redact.New(redact.Options{Builtin: true})))
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.ToolUse("toolu_1", "Bash", `{"cmd":"env"}`), sessiontest.Done("tool_use", ""))
	got, err := s.AppendUserMessage([]byte(`[{"type":"tool_result","tool_use_id":"toolu_1","content":"KEY=` + key + `"},{"type":"text","text":"see ` + key + `"}]`))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	if err := e.Store.Sync(); err != nil {
		t.Fatal(err)
	}
	err = e.Store.ScanMessages(s.ID(), func(m *session.StoredMessage) error {
		blocks = nil
		for _, b := range m.Blocks {
			blocks = append(blocks, string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `"content":[` + strings.Join(blocks, ",") + `]`
	if len(blocks) != 2 || strings.Contains(blocks[0], key) || !strings.Contains(string(got), want) {
		t.Fatalf("appendUserMessage returned\n %s\nthe store holds\n %s", got, want)
	}
}
