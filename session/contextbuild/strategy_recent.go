package contextbuild

import (
	"slices"
	"sort"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// recentTurns sends the session state, which opens with the original task (the first user
// message), and after it as many of the most recent whole turns as fit, those before the
// last UnprunedTurns pruned as pruned-tools prunes them. It is what a long session with no
// summary sends once its whole history, even pruned, is over the budget: the model keeps
// seeing as much recent work as fits instead of only the current turn. A turn starts at
// its prompt, so every tool call is sent with its result.
type recentTurns struct{}

func (recentTurns) name() string      { return RecentTurnsName }
func (recentTurns) priority() float64 { return 3.5 }
func (recentTurns) minBudget() int64  { return 1000 }

// omitReasonRecentTurns says why recent-turns leaves turns out.
const omitReasonRecentTurns = "older turns did not fit the budget; the session state (original task, files, status, decisions) stands for them"

func (recentTurns) build(v *view, budget int64) (*draft, error) {
	st, err := v.workState()
	if err != nil {
		return nil, err
	}
	text := st.text()
	if v.summary != nil {
		text = summaryPrefix + v.summary.Text + "\n\n" + text
	}
	d, err := v.recentTurnsFrom(userText(text), v.start, budget)
	if err != nil {
		return nil, err
	}
	d.summarized = v.idx.LastSeq + 1 - d.included
	d.summary = v.summary
	d.omitted.Reason = omitReasonRecentTurns
	return d, nil
}

// recentTurnsFrom drafts head followed by the most recent whole turns that start at or
// after from and fit the budget with it, the turns before the view's recent ones pruned.
// The first turn's prompt joins head, so the context opens with one user message. It costs
// a bisection over turns of count lookups, then reads only the messages it sends; it
// returns a skip error when not even the last turn fits.
func (v *view) recentTurnsFrom(head *ctxMessage, from, budget int64) (*draft, error) {
	first, err := v.firstTurnFrom(from)
	if err != nil {
		return nil, err
	}
	turn, seq, recent, err := v.mostTurnsFitting(first, tokens.RawUnits(budget, v.factor)-head.tokens)
	if err != nil {
		return nil, err
	}
	if turn > v.idx.LastTurn {
		need, err := v.lastTurnCost(recent)
		return nil, notFitErr(head.tokens+need, err)
	}
	msgs, _, err := v.loadPruned(seq, v.idx.LastSeq, recent)
	if err != nil {
		return nil, err
	}
	if len(msgs) == 0 {
		return nil, notFitErr(head.tokens, nil)
	}
	// The stored counts are close but not exact (a result pruned without its call is counted
	// again, repairs join messages), so the draft is measured as the builder will measure it
	// and its oldest turns dropped until it fits.
	for {
		sent := joinHead(head, msgs)
		if ok, raw := v.draftFits(sent, budget); !ok {
			next := nextPrompt(msgs)
			if next < 0 {
				return nil, notFitErr(raw, nil)
			}
			msgs, turn = msgs[next:], turn+1
			continue
		}
		d := &draft{messages: sent, included: int64(len(msgs)), pruned: countPruned(msgs)}
		d.omitted, err = v.omission(from, msgs[0].seq-1, turn-first)
		return d, err
	}
}

// repairSlack is how close to the budget, in tokens, a draft's own count must come for
// draftFits to work out its repairs: they change a count by a few tokens (a synthetic
// result for an interrupted call, joined messages), and working them out reads every block.
func repairSlack(budget int64) int64 { return max(200, budget/50) }

// draftFits reports whether a draft fits the budget as the builder will measure it, after
// repairs, and what it takes in raw units.
func (v *view) draftFits(sent []*ctxMessage, budget int64) (bool, int64) {
	raw := rawTokens(sent)
	if tokens.Calibrated(raw, v.factor) <= budget-repairSlack(budget) {
		return true, raw
	}
	fixed, _ := repair(slices.Clone(sent))
	raw = rawTokens(fixed)
	return v.fits(raw, budget), raw
}

// joinHead returns head followed by msgs, the first of them joined to head when it is the
// user's: a context opens with one user message.
func joinHead(head *ctxMessage, msgs []*ctxMessage) []*ctxMessage {
	h := *head
	if len(msgs) > 0 && msgs[0].role == "user" {
		h.blocks = append(slices.Clone(head.blocks), msgs[0].blocks...)
		h.tokens += msgs[0].tokens - tokens.MessageOverhead
		msgs = msgs[1:]
	}
	return append([]*ctxMessage{&h}, msgs...)
}

// nextPrompt returns the index of the first prompt after the first message, -1 when none.
func nextPrompt(msgs []*ctxMessage) int {
	for i := 1; i < len(msgs); i++ {
		if msgs[i].typ == session.TypeUser {
			return i
		}
	}
	return -1
}

// countPruned counts the messages sent pruned.
func countPruned(msgs []*ctxMessage) int64 {
	var n int64
	for _, m := range msgs {
		if m.pruned {
			n++
		}
	}
	return n
}

// mostTurnsFitting returns the first turn from first on whose messages to the end fit in
// left raw units, where it starts, and where the messages kept verbatim start: the view's
// recent turns, or only the last turn when that fits more turns (LastTurn+1 when none fit).
func (v *view) mostTurnsFitting(first, left int64) (turn, seq, recent int64, err error) {
	if recent, err = v.recentStart(); err != nil {
		return 0, 0, 0, err
	}
	if turn, seq, err = v.firstTurnFitting(first, recent, left); err != nil || (turn <= v.idx.LastTurn && seq <= recent) {
		return turn, seq, recent, err
	}
	last, found, err := v.pos.turnStart(v.idx.LastTurn)
	if err != nil || !found || last <= recent {
		return turn, seq, recent, err
	}
	t, sq, err := v.firstTurnFitting(first, last, left)
	if err != nil || t >= turn {
		return turn, seq, recent, err
	}
	return t, sq, last, nil
}

// firstTurnFrom returns the first turn that starts at or after seq (LastTurn+1 when none).
func (v *view) firstTurnFrom(seq int64) (int64, error) {
	var err error
	t := sort.Search(int(v.idx.LastTurn+1), func(i int) bool {
		start, found, e := v.pos.turnStart(int64(i))
		if e != nil {
			err = e
			return true
		}
		return found && start >= seq
	})
	return int64(t), err
}

// firstTurnFitting returns the first turn from first on whose messages to the end, pruned
// before recent, fit in left raw units, and where it starts; LastTurn+1 when none does.
// A turn with no start on the branch counts as not fitting.
func (v *view) firstTurnFitting(first, recent, left int64) (int64, int64, error) {
	var err error
	n := int(v.idx.LastTurn + 1 - first)
	i := sort.Search(max(n, 0), func(i int) bool {
		start, found, e := v.pos.turnStart(first + int64(i))
		if e == nil && found {
			var cost int64
			cost, e = prunedCost(v, start, recent)
			if e == nil {
				return cost <= left
			}
		}
		if e != nil {
			err = e
			return true
		}
		return false
	})
	turn := first + int64(i)
	if err != nil || turn > v.idx.LastTurn {
		return turn, 0, err
	}
	start, _, err := v.pos.turnStart(turn)
	return turn, start, err
}

// lastTurnCost is what the last turn alone takes, in raw units.
func (v *view) lastTurnCost(recent int64) (int64, error) {
	start, found, err := v.pos.turnStart(v.idx.LastTurn)
	if err != nil || !found {
		return 0, err
	}
	return prunedCost(v, start, recent)
}
