package session_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// The branches of real Claude Code transcripts, written into a store record for record as
// an import writes them: each line with its own uuid and parentUuid, an assistant message
// written one block per line continuing the line before it. Claude Code links the tool
// result of each parallel tool call to the line of its call, so such a transcript is a
// tree even where nobody rewound; the branch that ends at the head must still hold every
// tool result, and leave out what a rewind in Claude Code abandoned.

const realClaudeCode = "../../shared/fixtures/real/claude_code/"

// ccLine is what these tests read of a Claude Code transcript line.
type ccLine struct {
	Type        string `json:"type"`
	UUID        string `json:"uuid"`
	ParentUUID  string `json:"parentUuid"`
	IsSidechain bool   `json:"isSidechain"`
	Message     struct {
		ID      string          `json:"id"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// loadClaudeCode writes the records of a Claude Code transcript into a new session and
// opens it; lines with no uuid (snapshots, summaries, queue operations) are left out.
func loadClaudeCode(t *testing.T, e *sessiontest.Env, file string) *session.Session {
	t.Helper()
	f, err := os.Open(filepath.Join(realClaudeCode, file))
	if err != nil {
		t.Skipf("fixture not found: %v", err)
	}
	defer f.Close()
	id := uuid.Must(uuid.NewV7()).String()
	now := time.Now()
	e.Store.Apply(session.CreateSession{Info: session.SessionInfo{ID: id, CreatedAt: now, UpdatedAt: now, Status: session.StatusActive}})
	var seq, turn int64
	lastMessageID := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l ccLine
		if bytes.HasPrefix(sc.Bytes(), []byte("//")) || json.Unmarshal(sc.Bytes(), &l) != nil || l.UUID == "" {
			continue
		}
		blocks := ccBlocks(t, l.Message.Content)
		typ, role := l.Type, l.Message.Role
		if role == "user" && strings.Contains(string(l.Message.Content), `"tool_result"`) {
			typ = session.TypeToolResult
		} else if role == "user" && !l.IsSidechain && seq > 0 {
			turn++
		}
		continues := role == "assistant" && l.Message.ID != "" && l.Message.ID == lastMessageID
		if role == "assistant" {
			lastMessageID = l.Message.ID
		} else if !l.IsSidechain {
			lastMessageID = ""
		}
		e.Store.Apply(session.BeginMessage{SessionID: id, Header: session.MessageHeader{
			Seq: seq, UUID: l.UUID, ParentUUID: l.ParentUUID, Type: typ, Role: role, Turn: turn, CreatedAt: now,
			IsSidechain: l.IsSidechain, Continues: continues,
		}})
		for i, b := range blocks {
			var info struct{ Type, ID string }
			json.Unmarshal(b, &info)
			toolUse := ""
			if info.Type == "tool_use" {
				toolUse = info.ID
			}
			e.Store.Apply(session.PutBlock{SessionID: id, Seq: seq, Index: i, JSON: b, ToolUseID: toolUse})
		}
		e.Store.Apply(session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete})
		seq++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return e.Open(t, id)
}

// ccBlocks returns the blocks of a Claude Code message's content: a string is one text block.
func ccBlocks(t *testing.T, content json.RawMessage) []json.RawMessage {
	t.Helper()
	if len(content) == 0 {
		return nil
	}
	if content[0] == '"' {
		var text string
		json.Unmarshal(content, &text)
		return []json.RawMessage{sessiontest.MustMarshal(t, map[string]string{"type": "text", "text": text})}
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(content, &blocks); err != nil {
		t.Fatalf("content: %v", err)
	}
	return blocks
}

// toolPairs returns the ids of the tool calls and of the tool results in a conversation.
func toolPairs(t *testing.T, msgs []map[string]any) (calls, results []string) {
	t.Helper()
	for _, m := range msgs {
		for _, b := range sessiontest.Content(t, m) {
			switch b["type"] {
			case "tool_use":
				calls = append(calls, b["id"].(string))
			case "tool_result":
				results = append(results, b["tool_use_id"].(string))
			}
		}
	}
	return calls, results
}

// offBranch returns the previews of the records of the tree off the head's branch.
func offBranch(tree branches.Tree) []string {
	var off []string
	for _, n := range tree.Nodes {
		if !n.OnBranch {
			off = append(off, n.Preview)
		}
	}
	return off
}

func TestRealTranscriptsKeepEveryParallelToolResult(t *testing.T) {
	for _, c := range []struct {
		file           string
		calls, results int // of the main chain in the file
		offBranch      []string
	}{
		{"DRMacIver__claude-reliability__snapshot-tests__tests__coverage-test-fix__transcript.jsonl", 13, 13, nil},
		{"d-kimuson__claude-code-viewer__mock-global-claude-dir__projects__sample-project__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl", 13, 13, nil},
		// The user went back past a message and asked again: the first attempt is left
		// out. The file ends before the last two calls were answered.
		{"moredip__session-share__session-viewer__test__INTEGRATION__fixtures__images-in-user-messages.jsonl", 2, 0,
			[]string{"<ide_opened_file>The user opened the file /Users/pete/git/moredip/session-share…", "[thinking]",
				"The session ID is `47bf5f5c-9e11-4f51-8a29-7ad38ecdf17c`. You can see this in t…"}},
		// A prompt typed while a background task ran, answered on the other branch.
		{"moredip__session-share__samples__claude-code-projects__0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl", 7, 7,
			[]string{"are they still being written?", "[Request interrupted by user]"}},
	} {
		t.Run(c.file[:30], func(t *testing.T) {
			e := sessiontest.NewEnv(t)
			s := loadClaudeCode(t, e, c.file)
			calls, results := toolPairs(t, sessiontest.Messages(t, s))
			if len(calls) != c.calls || len(results) != c.results || !slices.Equal(calls[:len(results)], results) {
				t.Fatalf("the conversation calls %d tools %v and answers %v; want %d calls and %d results, each in order", len(calls), calls, results, c.calls, c.results)
			}
			tree := sessiontest.Tree(t, s)
			if got := offBranch(tree); !reflect.DeepEqual(got, c.offBranch) {
				t.Fatalf("off the branch: %q, want %q", got, c.offBranch)
			}
			onBranch := 0
			for _, n := range tree.Nodes {
				if n.OnBranch {
					onBranch++
				}
			}
			if n := len(sessiontest.Envelopes(t, s)); n != onBranch {
				t.Fatalf("envelopes() has %d records, the tree %d on the branch", n, onBranch)
			}
			if c.offBranch == nil {
				// Everything is on the branch, so the tree's turns are the store's.
				if want := sessiontest.Must(e.Store.Turns(s.ID())); !reflect.DeepEqual(sessiontest.Must(s.Turns()), want) {
					t.Fatalf("turns from the tree %+v, from the store %+v", sessiontest.Must(s.Turns()), want)
				}
			}
		})
	}
}
