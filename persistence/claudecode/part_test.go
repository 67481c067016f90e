package claudecode

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
)

func readPartOf(t *testing.T, text, subpath string) []session.StoredMessage {
	t.Helper()
	tr, err := ReadPart(strings.NewReader(text), "t.jsonl", subpath, nil)
	if err != nil {
		t.Fatalf("ReadPart: %v", err)
	}
	return stored(tr.Records)
}

func scanOf(msgs []session.StoredMessage) session.Scan {
	return func(fn func(*session.StoredMessage) error) error {
		for i := range msgs {
			if err := fn(&msgs[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

func writePart(t *testing.T, msgs []session.StoredMessage, subpath string) []map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := WritePart(subpath)(&buf, session.SessionState{}, scanOf(msgs)); err != nil {
		t.Fatalf("WritePart: %v", err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if l == "" {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("WritePart wrote %q: %v", l, err)
		}
		out = append(out, v)
	}
	return out
}

func decodeLines(t *testing.T, ls ...string) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(ls))
	for i, l := range ls {
		if err := json.Unmarshal([]byte(l), &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestEachPartIsWrittenBackApartFieldForField(t *testing.T) {
	mainPart := readPartOf(t, lines(userLine, a1, a2), "")
	sub := readPartOf(t, lines(a4, summary), "subagents/agent-x")
	made := session.StoredMessage{UUID: "m1", Type: "user", Role: "user", Blocks: [][]byte{[]byte(`{"type":"text","text":"hi"}`)}}
	all := append(append(append([]session.StoredMessage{}, mainPart...), made), sub...)

	if got, want := writePart(t, all, ""), decodeLines(t, userLine, a1, a2); !reflect.DeepEqual(got, want) {
		t.Errorf("the main part:\n got %v\nwant %v", got, want)
	}
	if got, want := writePart(t, all, "subagents/agent-x"), decodeLines(t, a4, summary); !reflect.DeepEqual(got, want) {
		t.Errorf("the subagent's part:\n got %v\nwant %v", got, want)
	}
	if got := writePart(t, all, "subagents/agent-y"); len(got) != 0 {
		t.Errorf("a part never read gave %v", got)
	}
	parts, err := Parts(scanOf(all))
	if err != nil || !reflect.DeepEqual(parts, []string{"subagents/agent-x"}) {
		t.Errorf("Parts = %v, %v", parts, err)
	}
}

func TestAPartKeepsALineWhoseMessageCannotBeReadVerbatim(t *testing.T) {
	bad := `{"type":"assistant","uuid":"b1","parentUuid":"u1","sessionId":"s1","message":{"role":"assistant","content":[{"type":"tool_use","name":"no id"}]}}`
	if tr := read(t, lines(userLine, bad), nil); len(tr.Skipped) != 1 {
		t.Fatalf("Read skipped %v, want the bad line", tr.Skipped)
	}
	msgs := readPartOf(t, lines(userLine, bad), "")
	if len(msgs) != 2 || msgs[1].Role != "" {
		t.Fatalf("ReadPart kept %d records, the second with role %q; want 2, the second no message", len(msgs), msgs[1].Role)
	}
	if got, want := writePart(t, msgs, ""), decodeLines(t, userLine, bad); !reflect.DeepEqual(got, want) {
		t.Errorf("written back:\n got %v\nwant %v", got, want)
	}
}
