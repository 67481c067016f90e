package postgres

import (
	"errors"

	"github.com/sessionkeep/sessionkeep/persistence/contextcache"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// applyContextOp applies an Op of the context builder (contextcache.Apply) to its session,
// unless the session was deleted after it was queued: nothing to keep it for then. A
// message's token count goes in the pipeline as one statement (setTokensSQL).
func (b *batchWriter) applyContextOp(op session.ContextOp) error {
	sid, err := b.sid(op.SessionOf())
	if errors.Is(err, errUnknownSession) {
		return nil
	}
	if err != nil {
		return err
	}
	if set, ok := op.(tokens.SetTokens); ok {
		c := set.Count
		return b.queue(nil, setTokensSQL, c.Tokens, c.Pruned, c.Source, sid, set.Seq)
	}
	return contextcache.Apply(cacheDB{b}, sid, op)
}

// setTokensSQL stores a message's count and its cumulative counts, as contextcache's
// setTokens does (the previous message's plus its own; NULL while the previous message is
// not counted; its own alone for the first message), but in one statement that reads the
// previous message itself: contextcache reads it first, a round trip that sends the
// pipeline, for each counted message (359 of them in W1, each a round trip).
const setTokensSQL = `UPDATE messages m SET tokens = $1, pruned_tokens = $2, token_source = $3,
		cum_tokens = CASE WHEN p.seq IS NULL THEN 0 ELSE p.cum_tokens END + $1,
		cum_pruned = CASE WHEN p.seq IS NULL THEN 0 ELSE p.cum_pruned END + $2
	FROM (SELECT) AS one LEFT JOIN LATERAL (
		SELECT seq, cum_tokens, cum_pruned FROM messages WHERE sid = $4 AND seq < $5 ORDER BY seq DESC LIMIT 1) p ON true
	WHERE m.sid = $4 AND m.seq = $5`
