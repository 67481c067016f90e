package contextbuild

import (
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// WorkState is the state of the work a session is doing, extracted from its messages for
// the minimal-state strategy (seed 004): the original task, the files touched, the status,
// decisions and blockers. It is folded one message at a time and stored, so that each
// build reads only the messages that arrived since the last one.
type WorkState struct {
	OriginalTask string           `json:"originalTask"`
	Files        []FileTouch      `json:"files"`
	Status       string           `json:"status"`
	Decisions    []string         `json:"decisions"`
	Blockers     []Blocker        `json:"blockers"`
	LastTurn     int64            `json:"lastTurn"`
	Names        tokens.ToolNames `json:"names,omitempty"` // tool calls not answered yet
}

// FileTouch is a file a tool call read or changed.
type FileTouch struct {
	Path   string `json:"path"`
	Action string `json:"action"` // read, written, edited, deleted
}

// Blocker is an error the session ran into: a failed tool call, an interrupted reply.
type Blocker struct {
	Turn int64  `json:"turn"`
	Text string `json:"text"`
}

// How much of each the state keeps.
const (
	stateTaskChars    = 2000
	stateStatusChars  = 600
	stateItemChars    = 200
	stateMaxFiles     = 40
	stateMaxDecisions = 12
	stateMaxBlockers  = 8
	blockerTurns      = 3 // blockers older than this many turns are taken as resolved
)

// decisionPattern finds sentences that state a decision.
var decisionPattern = regexp.MustCompile(`(?i)\b(i'll|i will|we'll|we will|decided|decision|going with|instead of|switch(ed)? to|chose|let's use|must not|don't|do not|prefer)\b`)

// fold adds one message to the state.
func (st *WorkState) fold(m *tokens.ContextMessage) {
	st.LastTurn = m.Turn
	if st.Names == nil {
		st.Names = tokens.ToolNames{}
	}
	if m.Status == session.MessageInterrupted || m.Status == session.MessageError {
		st.addBlocker(m.Turn, "the assistant's reply was "+m.Status)
	}
	for _, raw := range m.Blocks {
		b, ok := tokens.DecodeBlock(raw)
		if !ok {
			continue
		}
		st.foldBlock(m, &b)
	}
}

func (st *WorkState) foldBlock(m *tokens.ContextMessage, b *tokens.Block) {
	switch {
	case b.Type == blocks.BlockText && m.Type == session.TypeUser:
		if st.OriginalTask == "" {
			st.OriginalTask = tokens.CutRunes(strings.TrimSpace(b.Text), stateTaskChars)
		} else if line := firstLine(b.Text); line != "" {
			st.addDecision("User: " + line)
		}
	case b.Type == blocks.BlockText && m.Role == "assistant":
		st.Status = tailRunes(strings.TrimSpace(b.Text), stateStatusChars)
		for _, s := range sentences(b.Text) {
			if decisionPattern.MatchString(s) {
				st.addDecision(s)
			}
		}
	case b.Type == blocks.BlockToolUse:
		st.Names[b.ID] = b.Name
		st.touch(b.Name, b.Input)
	case b.Type == blocks.BlockToolResult:
		name := st.Names[b.ToolUseID]
		delete(st.Names, b.ToolUseID)
		if b.IsError {
			text, _ := tokens.FlattenResult(b.Content)
			st.addBlocker(m.Turn, strings.TrimSpace(name+" failed: "+firstLine(text)))
		}
	}
}

// filePathKeys are the input fields that name a file, across agents' tools.
var filePathKeys = []string{"file_path", "path", "notebook_path", "filePath", "filename", "target_file"}

// touch records the file a tool call works on, if it names one.
func (st *WorkState) touch(tool string, input json.RawMessage) {
	var fields map[string]any
	if json.Unmarshal(input, &fields) != nil {
		return
	}
	for _, k := range filePathKeys {
		if p, ok := fields[k].(string); ok && p != "" {
			st.addFile(p, fileAction(tool))
			return
		}
	}
}

func fileAction(tool string) string {
	n := strings.ToLower(tool)
	switch {
	case strings.Contains(n, "write") || strings.Contains(n, "create"):
		return "written"
	case strings.Contains(n, "edit") || strings.Contains(n, "replace") || strings.Contains(n, "patch"):
		return "edited"
	case strings.Contains(n, "delete") || strings.Contains(n, "remove"):
		return "deleted"
	}
	return "read"
}

// addFile records a file; a change outranks a read, and the latest files are kept.
func (st *WorkState) addFile(path, action string) {
	if i := slices.IndexFunc(st.Files, func(f FileTouch) bool { return f.Path == path }); i >= 0 {
		if action == "read" {
			action = st.Files[i].Action
		}
		st.Files = slices.Delete(st.Files, i, i+1)
	}
	st.Files = append(st.Files, FileTouch{Path: path, Action: action})
	if len(st.Files) > stateMaxFiles {
		st.Files = st.Files[len(st.Files)-stateMaxFiles:]
	}
}

func (st *WorkState) addDecision(s string) {
	s = tokens.CutRunes(strings.TrimSpace(s), stateItemChars)
	if s == "" || slices.Contains(st.Decisions, s) {
		return
	}
	st.Decisions = append(st.Decisions, s)
	if len(st.Decisions) > stateMaxDecisions {
		st.Decisions = st.Decisions[1:]
	}
}

func (st *WorkState) addBlocker(turn int64, text string) {
	st.Blockers = append(st.Blockers, Blocker{Turn: turn, Text: tokens.CutRunes(text, stateItemChars)})
	if len(st.Blockers) > stateMaxBlockers {
		st.Blockers = st.Blockers[1:]
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return tokens.CutRunes(strings.TrimSpace(line), stateItemChars)
}

// tailRunes returns at most the last n bytes of s, not splitting a UTF-8 character.
func tailRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return "…" + s[i:]
}

// sentences splits text into sentences, roughly: at line ends and after . ! ?
func sentences(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '.' || r == '!' || r == '?' })
}
