package postgres

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// applyContextOp applies the Ops of the context builder: counts, summaries, boundaries
// and folded state. They leave the session's listing as it is.
func (b *batchWriter) applyContextOp(op session.ContextOp) error {
	sid, err := b.sid(op.SessionOf())
	if errors.Is(err, errUnknownSession) {
		return nil // the session was deleted after this was queued: nothing to keep it for
	}
	if err != nil {
		return err
	}
	switch op := op.(type) {
	case tokens.SetTokens:
		return b.setTokens(sid, op)
	case contextbuild.PutSummary:
		s := op.Summary
		_, err := b.c.exec(`INSERT INTO summaries(sid, from_seq, to_seq, message_count, tokens_before, tokens_after, model, text, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
			sid, s.FromSeq, s.ToSeq, s.MessageCount, s.TokensBefore, s.TokensAfter, s.Model, s.Text, s.CreatedAt.UnixMilli())
		return err
	case contextbuild.PutCompaction:
		c := op.Compaction
		_, err := b.c.exec(`INSERT INTO compactions(sid, boundary_seq, reason, tokens_before, tokens_after, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, sid, c.Seq, c.Trigger, c.TokensBefore, c.TokensAfter, c.CreatedAt.UnixMilli())
		return err
	case contextbuild.PutContextState:
		_, err := b.c.exec(`INSERT INTO context_states(sid, through, state) VALUES ($1, $2, $3)
			ON CONFLICT (sid) DO UPDATE SET through = excluded.through, state = excluded.state`, sid, op.Through, op.State)
		return err
	}
	return fmt.Errorf("unknown op %T", op)
}

// setTokens stores a message's count and its cumulative counts: the previous message's
// plus its own, NULL while the previous message is not counted (FirstUncounted finds the
// gap).
func (b *batchWriter) setTokens(sid int64, op tokens.SetTokens) error {
	var cumTokens, cumPruned any = int64(0), int64(0)
	err := b.c.query(`SELECT cum_tokens, cum_pruned FROM messages WHERE sid = $1 AND seq < $2 ORDER BY seq DESC LIMIT 1`,
		[]any{sid, op.Seq}, func(row []any) error {
			cumTokens, cumPruned = row[0], row[1]
			return nil
		})
	if err != nil {
		return err
	}
	if t, ok := cumTokens.(int64); ok {
		cumTokens = t + op.Count.Tokens
	}
	if p, ok := cumPruned.(int64); ok {
		cumPruned = p + op.Count.Pruned
	}
	_, err = b.c.exec(`UPDATE messages SET tokens = $1, pruned_tokens = $2, token_source = $3, cum_tokens = $4, cum_pruned = $5
		WHERE sid = $6 AND seq = $7`, op.Count.Tokens, op.Count.Pruned, op.Count.Source, cumTokens, cumPruned, sid, op.Seq)
	return err
}
