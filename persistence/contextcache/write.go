package contextcache

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Apply applies an Op of the context builder to session sid in the writer's transaction:
// counts, summaries, boundaries and folded state. They are bookkeeping beside the
// messages, not activity: they leave the session's listing (updated_at, owner, status) as
// it is.
func Apply(db DB, sid int64, op session.ContextOp) error {
	switch op := op.(type) {
	case tokens.SetTokens:
		return setTokens(db, sid, op)
	case contextbuild.PutSummary:
		s := op.Summary
		return db.Exec(`INSERT INTO summaries(sid, from_seq, to_seq, message_count, tokens_before, tokens_after, model, text, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			sid, s.FromSeq, s.ToSeq, s.MessageCount, s.TokensBefore, s.TokensAfter, s.Model, s.Text, s.CreatedAt.UnixMilli())
	case contextbuild.PutCompaction:
		c := op.Compaction
		return db.Exec(`INSERT INTO compactions(sid, boundary_seq, reason, tokens_before, tokens_after, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, sid, c.Seq, c.Trigger, c.TokensBefore, c.TokensAfter, c.CreatedAt.UnixMilli())
	case contextbuild.PutContextState:
		return db.Exec(`INSERT INTO context_states(sid, through, state) VALUES (?, ?, ?)
			ON CONFLICT (sid) DO UPDATE SET through = excluded.through, state = excluded.state`, sid, op.Through, op.State)
	}
	return fmt.Errorf("unknown op %T", op)
}

// setTokens stores a message's count and its cumulative counts: the previous message's
// plus its own. When the previous message is not counted yet, the cumulative counts stay
// NULL, and FirstUncounted finds the gap for the builder to fill.
func setTokens(db DB, sid int64, op tokens.SetTokens) error {
	var cumTokens, cumPruned any = int64(0), int64(0)
	err := db.Query(`SELECT cum_tokens, cum_pruned FROM messages WHERE sid = ? AND seq < ? ORDER BY seq DESC LIMIT 1`,
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
	return db.Exec(`UPDATE messages SET tokens = ?, pruned_tokens = ?, token_source = ?, cum_tokens = ?, cum_pruned = ?
		WHERE sid = ? AND seq = ?`, op.Count.Tokens, op.Count.Pruned, op.Count.Source, cumTokens, cumPruned, sid, op.Seq)
}
