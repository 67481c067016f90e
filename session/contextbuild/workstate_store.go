package contextbuild

import (
	"fmt"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// workState returns the session's state through the end of the view: the stored state,
// with the messages after it folded in and the result stored again.
func (v *view) workState() (*WorkState, error) {
	raw, through, err := v.store.ContextState(v.s.ID())
	if err != nil {
		return nil, err
	}
	st := &WorkState{}
	if len(raw) > 0 && json.Unmarshal(raw, st) != nil || through >= 0 && !v.pos.onBranch(through) {
		st, through = &WorkState{}, -1 // written by another version, or folded on another branch: fold again
	}
	if through >= v.idx.LastSeq {
		return st, nil
	}
	err = v.pos.scan(through+1, v.idx.LastSeq, func(m *tokens.ContextMessage) error {
		if m.IsConversation() {
			st.fold(m)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.store.Apply(PutContextState{SessionID: v.s.ID(), State: blocks.MustJSON(st), Through: v.idx.LastSeq})
	return st, nil
}

// text formats the state as the message that opens a minimal context (seed 004).
func (st *WorkState) text() string {
	var b strings.Builder
	b.WriteString("You are continuing a session whose earlier messages are stored but not sent. Its state:\n\n")
	fmt.Fprintf(&b, "ORIGINAL TASK: %s\n", orNone(st.OriginalTask))
	b.WriteString("\nFILES TOUCHED:\n")
	if len(st.Files) == 0 {
		b.WriteString("- none\n")
	}
	for _, f := range st.Files {
		fmt.Fprintf(&b, "- %s (%s)\n", f.Path, f.Action)
	}
	fmt.Fprintf(&b, "\nCURRENT STATUS: %s\n", orNone(st.Status))
	writeList(&b, "KEY DECISIONS", st.Decisions)
	var blockers []string
	for _, x := range st.Blockers {
		if x.Turn > st.LastTurn-blockerTurns {
			blockers = append(blockers, x.Text)
		}
	}
	writeList(&b, "RECENT ERRORS AND BLOCKERS", blockers)
	b.WriteString("\nContinue with the user's request below.")
	return b.String()
}

func writeList(b *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s:\n", title)
	for _, s := range items {
		fmt.Fprintf(b, "- %s\n", s)
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none recorded)"
	}
	return s
}
