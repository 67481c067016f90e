package contextbuild

import "fmt"

// Omission is what a context leaves out: stored messages of the view that are neither sent
// nor stood for by a summary (the session state may still mention them), and why. The
// counts are of stored records, as originalMessageCount is.
type Omission struct {
	MessageCount int64  `json:"messageCount"`
	TurnCount    int64  `json:"turnCount"` // whole turns left out
	Tokens       int64  `json:"tokens"`    // what they would take verbatim
	FromSeq      int64  `json:"fromSeq"`   // the first left out; -1 when nothing is
	ToSeq        int64  `json:"toSeq"`     // the last left out
	Reason       string `json:"reason,omitempty"`
}

// omission counts messages from..to as left out, turns of them whole; in raw units until
// the report calibrates it.
func (v *view) omission(from, to, turns int64) (Omission, error) {
	if to < from {
		return Omission{FromSeq: -1, ToSeq: -1}, nil
	}
	before, err := v.cumBefore(from)
	if err != nil {
		return Omission{}, err
	}
	through, err := v.pos.cumAt(to)
	return Omission{MessageCount: to - from + 1, TurnCount: turns, Tokens: through.Tokens - before.Tokens, FromSeq: from, ToSeq: to}, err
}

// skip is what a strategy returns when it can tell, before reading messages, that it has
// nothing to send: the outcome for the report, and for one that does not fit what it
// would need, in raw units. The builder reports it and moves on.
type skip struct {
	outcome string
	need    int64
}

func (e *skip) Error() string { return fmt.Sprintf("%s (needs %d tokens)", e.outcome, e.need) }

// notFitErr returns err when there is one, else a skip for a draft that would need need.
func notFitErr(need int64, err error) error {
	if err != nil {
		return err
	}
	return &skip{outcome: OutcomeDoesNotFit, need: need}
}

// plus adds another range left out to o.
func (o Omission) plus(p Omission) Omission {
	if p.MessageCount == 0 {
		return o
	}
	if o.MessageCount == 0 {
		return p
	}
	o.MessageCount, o.TurnCount, o.Tokens = o.MessageCount+p.MessageCount, o.TurnCount+p.TurnCount, o.Tokens+p.Tokens
	o.FromSeq, o.ToSeq = min(o.FromSeq, p.FromSeq), max(o.ToSeq, p.ToSeq)
	return o
}

// prunedCost is what messages from the one at from to the end take, in raw units, with
// those before recent pruned.
func prunedCost(v *view, from, recent int64) (int64, error) {
	recent = max(recent, from)
	old, err := v.tokensFrom(from)
	if err != nil {
		return 0, err
	}
	kept, err := v.tokensFrom(recent)
	return (old.Pruned - kept.Pruned) + kept.Tokens, err
}
