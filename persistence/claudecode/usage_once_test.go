package claudecode

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

// usageSum adds up the usage the records of a transcript carry.
func usageSum(tr *Transcript) (sum session.TokenTracker, carriers []string) {
	for _, r := range tr.Records {
		if r.Usage != nil {
			sum.Add(*r.Usage)
			carriers = append(carriers, r.UUID)
		}
	}
	return sum, carriers
}

// renamed returns line with its uuid and parentUuid replaced, as Claude Code writes a
// response again.
func renamed(line, uuid, parent string) string {
	var v map[string]any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		panic(err)
	}
	v["uuid"] = uuid
	if parent == "" {
		v["parentUuid"] = nil
	} else {
		v["parentUuid"] = parent
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func TestAResponseWrittenAgainUnderNewUUIDsCountsItsUsageOnce(t *testing.T) {
	tr := read(t, lines(userLine, a1, a2, a3, r1, r2,
		renamed(userLine, "u1b", ""), renamed(a1, "a1b", "u1b"), renamed(a2, "a2b", "a1b"), renamed(a3, "a3b", "a2b"),
		renamed(r2, "r2b", "a3b"), renamed(a4, "a4b", "r2b")), nil)
	sum, carriers := usageSum(tr)
	if sum.OutputTokens != 30+2 || sum.InputTokens != 10+50 {
		t.Errorf("usage = %+v, want msg_1 (10 in, 30 out) and msg_2 (50 in, 2 out) once each", sum)
	}
	if strings.Join(carriers, ",") != "a3b,a4b" {
		t.Errorf("usage on %v, want on the last line of each response (a3b,a4b)", carriers)
	}
}

func TestAToolResultBetweenTheLinesOfAResponseDoesNotCountItTwice(t *testing.T) {
	tr := read(t, lines(userLine, a1, a2, r1, a3, r2, a4), nil)
	sum, carriers := usageSum(tr)
	if sum.OutputTokens != 30+2 || strings.Join(carriers, ",") != "a3,a4" {
		t.Errorf("usage = %+v on %v, want 32 output tokens on a3,a4", sum, carriers)
	}
}

func TestRealTranscriptsCountEachAPIResponseOnce(t *testing.T) {
	dir := fixtures.Dir("claude_code")
	if dir == "" {
		t.Skip("no real fixtures beside the checkout")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	rewritten := 0
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Read(bytes.NewReader(raw), path, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := usageSum(tr)
		want, copies := uniqueResponses(raw)
		got.ContextTokens, want.ContextTokens = 0, 0
		if got != want {
			t.Errorf("%s: usage %+v, want the sum over unique responses %+v", filepath.Base(path), got, want)
		}
		if copies {
			rewritten++
		}
	}
	if rewritten == 0 {
		t.Error("no fixture writes a response twice, so the dedup is not tested on real files")
	}
}

// uniqueResponses sums the usage of each (message.id, requestId) of a transcript once, at
// its last line, and reports whether a response's lines came again after a user line.
func uniqueResponses(raw []byte) (sum session.TokenTracker, copies bool) {
	last := map[string]session.Usage{}
	var order []string
	current := ""
	for _, l := range bytes.Split(raw, []byte("\n")) {
		var r struct {
			Type      string `json:"type"`
			RequestID string `json:"requestId"`
			Message   struct {
				ID    string          `json:"id"`
				Role  string          `json:"role"`
				Usage json.RawMessage `json:"usage"`
			} `json:"message"`
		}
		if json.Unmarshal(l, &r) != nil || r.Type != "assistant" || r.Message.Role != "assistant" || len(r.Message.Usage) == 0 {
			if r.Type == "user" {
				current = ""
			}
			continue
		}
		u, err := session.ParseUsage(r.Message.Usage)
		if err != nil {
			continue
		}
		key := r.Message.ID + "\x00" + r.RequestID
		if _, seen := last[key]; seen && key != current {
			copies = true
		} else if !seen {
			order = append(order, key)
		}
		last[key], current = u, key
	}
	for _, k := range order {
		sum.Add(last[k])
	}
	return sum, copies
}
