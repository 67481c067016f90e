package contextbuild

import (
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// minimalState sends the state of the work (original task, files touched, status,
// decisions, blockers) with the last prompt, and as many of the last steps of the current
// turn as fit: an agent cut off mid-turn sees what it just did. A step starts at an
// assistant message, so a tool call and its result stay together.
type minimalState struct{}

func (minimalState) name() string      { return MinimalStateName }
func (minimalState) priority() float64 { return 4 }
func (minimalState) minBudget() int64  { return 400 }

func (minimalState) build(v *view, budget int64) (*draft, error) {
	st, err := v.workState()
	if err != nil {
		return nil, err
	}
	opening, prompt, err := v.opening(st.text())
	if err != nil || !v.fits(opening.tokens, budget) {
		return nil, notFitErr(opening.tokens, err)
	}
	steps, err := v.lastSteps(prompt, tokens.RawUnits(budget, v.factor)-opening.tokens)
	if err != nil {
		return nil, err
	}
	d := &draft{messages: append([]*ctxMessage{opening}, steps...)}
	d.included = int64(len(steps))
	if prompt >= 0 {
		d.included++
	}
	d.summarized = v.idx.LastSeq + 1 - d.included
	d.omitted, err = v.minimalOmission(prompt, steps)
	d.omitted.Reason = omitReasonMinimal
	return d, err
}

// omitReasonMinimal says why minimal-state leaves messages out.
const omitReasonMinimal = "not even the most recent whole turn fit with the session state; only the last prompt and the latest steps of its turn are sent"

// minimalOmission counts what a minimal context leaves out: the turns before the prompt
// and the steps between the prompt and the first step sent.
func (v *view) minimalOmission(prompt int64, steps []*ctxMessage) (Omission, error) {
	end := v.idx.LastSeq
	if len(steps) > 0 {
		end = steps[0].seq - 1
	}
	if prompt < v.start {
		return v.omission(v.start, end, 0)
	}
	first, err := v.firstTurnFrom(v.start)
	if err != nil {
		return Omission{}, err
	}
	before, err := v.omission(v.start, prompt-1, max(0, v.idx.LastTurn-first))
	if err != nil {
		return Omission{}, err
	}
	within, err := v.omission(prompt+1, end, 0)
	return before.plus(within), err
}

// opening returns the message that opens a minimal context: text followed by the last
// prompt's blocks, and the prompt's seq (-1 when the last turn has none).
func (v *view) opening(text string) (*ctxMessage, int64, error) {
	m := userText(text)
	seq, found, err := v.pos.turnStart(v.idx.LastTurn)
	if err != nil || !found {
		return m, -1, err
	}
	var prompt *ctxMessage
	err = v.pos.scan(seq, seq, func(cm *tokens.ContextMessage) error {
		if cm.Type == session.TypeUser {
			prompt = fromStored(cm)
		}
		return nil
	})
	if err != nil || prompt == nil {
		return m, -1, err
	}
	m.blocks = append(m.blocks, prompt.blocks...)
	m.tokens += prompt.tokens - tokens.MessageOverhead
	return m, seq, nil
}

// lastSteps returns the steps after the prompt, from the end, that fit in raw units.
func (v *view) lastSteps(prompt, raw int64) ([]*ctxMessage, error) {
	if raw <= 0 {
		return nil, nil
	}
	from := max(prompt+1, v.start)
	if p, found, err := v.pos.firstSeqReaching(v.idx.Total.Tokens - raw); err != nil {
		return nil, err
	} else if found {
		from = max(from, p+1)
	}
	cut, found, err := v.pos.cut(from, true, false)
	if err != nil || !found || cut > v.idx.LastSeq {
		return nil, err
	}
	return v.load(cut)
}
