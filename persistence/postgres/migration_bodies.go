package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
)

// settleBatch is how many messages one transaction of settleBodies moves: small enough that
// a transaction holds its rows for a moment only (hosts keep writing beside it), large
// enough that round trips are not most of its time.
const settleBatch = 500

// settleBodies moves the messages of a store written before migration 4 into bodies: each
// message that has ended (not streaming, a message and not another record) whose block rows
// are all there and complete gets its body, layout and search text, and its block rows are
// deleted. It runs in batches of its own transactions, in key order, each locking the rows
// it moves and skipping those another host is moving, so that a kill at any point leaves
// every message either moved or not (a rerun goes on where the store stands: nothing is
// lost or moved twice), and readers, which read either form, never wait for it. Once a pass
// over the store ends, it is recorded done and not run again, and the index it found its
// messages by is dropped. ctx cancelled stops it between or inside batches.
func settleBodies(ctx context.Context, pool *pgxpool.Pool, batch int) error {
	var pending bool
	err := pool.QueryRow(ctx, `SELECT count(*) > 0 FROM background_migrations WHERE name = 'bodies' AND done_at IS NULL`).Scan(&pending)
	if err != nil || !pending {
		return storageError("reading the state of the move to bodies", err)
	}
	after := msgbody.Key{SID: -1, Seq: -1}
	for {
		n, last, err := settleSlice(ctx, pool, after, batch)
		if err != nil {
			return storageError("moving messages into bodies", err)
		}
		if n < batch {
			break
		}
		after = last
	}
	_, err = pool.Exec(ctx, `UPDATE background_migrations SET done_at = $1 WHERE name = 'bodies'`, time.Now().UnixMilli())
	if err != nil {
		return storageError("recording the move to bodies done", err)
	}
	// The index that found the messages to move would cost every message written from now
	// on an entry; CONCURRENTLY does not hold up the hosts writing meanwhile.
	_, err = pool.Exec(ctx, `DROP INDEX CONCURRENTLY IF EXISTS messages_without_body`)
	return storageError("dropping the index of the move to bodies", err)
}

// settleSlice moves, in one transaction, the messages without a body among the batch after
// key after that no other transaction holds, and returns how many it looked at and the key
// of the last.
func settleSlice(ctx context.Context, pool *pgxpool.Pool, after msgbody.Key, batch int) (n int, last msgbody.Key, err error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return 0, last, err
	}
	defer tx.Rollback(ctx)
	n, last, err = settleRows(conn{tx, ctx}, `SELECT m.sid, m.seq FROM messages m WHERE m.body IS NULL AND (m.sid, m.seq) > ($1, $2)
		ORDER BY m.sid, m.seq LIMIT $3 FOR UPDATE SKIP LOCKED`, after.SID, after.Seq, batch)
	if err != nil {
		return n, last, err
	}
	return n, last, tx.Commit(ctx)
}

// settleInterrupted moves the interrupted messages of the sessions ids, which recovery has
// just marked, into bodies, or, when their blocks are not whole, makes the text of their
// complete blocks searchable: what their writer would have done had it ended them.
func settleInterrupted(c conn, ids []string) error {
	tx, err := c.q.(interface {
		Begin(ctx context.Context) (pgx.Tx, error)
	}).Begin(c.ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(c.ctx)
	_, _, err = settleRows(conn{tx, c.ctx}, `SELECT m.sid, m.seq FROM messages m JOIN sessions s ON s.sid = m.sid
		WHERE s.id = ANY($1) AND m.body IS NULL AND m.status = 'interrupted' FOR UPDATE OF m SKIP LOCKED`, ids)
	if err != nil {
		return err
	}
	return tx.Commit(c.ctx)
}

// settleRows moves into bodies the messages that slice, a query of their keys which locks
// their rows, selects: each that has ended (not streaming, a message and not another
// record) with its block rows all there and complete gets its body and layout, and its
// block rows are deleted; one whose blocks are not whole keeps them, its complete blocks'
// text made searchable. Either waits for the indexer. It returns how many messages slice selected and the
// key of the last, in key order.
func settleRows(c conn, slice string, args ...any) (n int, last msgbody.Key, err error) {
	var moved struct {
		sid, seq     []int64
		body, layout [][]byte
		text         []*string
	}
	const at = messageColumnCount
	var bodies msgbody.Builder
	err = c.query(`WITH slice AS (`+slice+`)
		SELECT `+messageColumns+`, m.sid, s.id, m.status <> 'streaming' AND m.role <> '', b.idx, b.partial, b.body
		FROM slice k JOIN messages m ON m.sid = k.sid AND m.seq = k.seq JOIN sessions s ON s.sid = m.sid
			LEFT JOIN LATERAL (SELECT array_agg(b.idx ORDER BY b.idx) AS idx, array_agg(b.partial ORDER BY b.idx) AS partial,
				array_agg(b.body ORDER BY b.idx) AS body FROM blocks b WHERE b.sid = m.sid AND b.seq = m.seq) b ON true
		ORDER BY m.sid, m.seq`, args, func(row []any) error {
		n++
		m := messageOfRow(row, row[at+1].(string))
		last = msgbody.Key{SID: row[at].(int64), Seq: m.Seq}
		if !row[at+2].(bool) {
			return nil // streaming, or not a message: it keeps its rows
		}
		blocks, whole := journaledBlocks(row[at+3], row[at+4], row[at+5])
		var body, layout []byte
		if whole {
			m.Blocks = blocks
			body, layout = encodeBody(&bodies, &m, false)
		}
		var text string // kept only for a message without a body
		if body == nil {
			text, _ = messageSearchText(blocks).(string)
		}
		if body == nil && text == "" {
			return nil
		}
		moved.sid, moved.seq = append(moved.sid, last.SID), append(moved.seq, last.Seq)
		moved.body, moved.layout = append(moved.body, body), append(moved.layout, layout)
		moved.text = append(moved.text, textPtr(nullable(text)))
		return nil
	})
	if err != nil || len(moved.sid) == 0 {
		return n, last, err
	}
	if _, err := c.exec(`UPDATE messages m SET body = f.body, layout = f.layout, search_text = f.text, search = NULL
		FROM unnest($1::bigint[], $2::bigint[], $3::bytea[], $4::bytea[], $5::text[]) AS f(sid, seq, body, layout, text)
		WHERE m.sid = f.sid AND m.seq = f.seq`, moved.sid, moved.seq, moved.body, moved.layout, moved.text); err != nil {
		return n, last, err
	}
	_, err = c.exec(`DELETE FROM blocks b USING unnest($1::bigint[], $2::bigint[], $3::bytea[]) AS f(sid, seq, body)
		WHERE f.body IS NOT NULL AND b.sid = f.sid AND b.seq = f.seq`, moved.sid, moved.seq, moved.body)
	return n, last, err
}

// journaledBlocks returns the complete blocks of a message from its block rows' arrays of
// index, partial flag and JSON, in order, and whether they make a whole message: at least
// one, numbered from 0 without a gap, none partial.
func journaledBlocks(idx, partial, body any) (blocks [][]byte, whole bool) {
	idxs, _ := idx.([]any)
	partials, _ := partial.([]any)
	bodies, _ := body.([]any)
	if len(partials) != len(idxs) || len(bodies) != len(idxs) {
		return nil, false
	}
	whole = len(idxs) > 0
	for i := range idxs {
		n, _ := idxs[i].(int64)
		p, _ := partials[i].(bool)
		b, ok := bodies[i].([]byte)
		if n != int64(i) || p || !ok {
			whole = false
		}
		if !p && ok {
			blocks = append(blocks, b)
		}
	}
	return blocks, whole
}
