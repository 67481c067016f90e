package postgres

import (
	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// messageRows are the messages a batch inserts (begun, or begun and ended whole), gathered
// so that a run of them goes to the server as one multi-row statement (insertMessagesSQL)
// instead of one INSERT each: W1's 2,000 messages cost the server 0.35-0.5 ms apiece one
// by one, 0.13-0.25 ms in runs of hundreds. A run ends at the first other statement queued
// (batchWriter.queue), which may need the rows, and at each send.
type messageRows struct {
	sid, seq, turn, createdAt, input, output, cacheRead, cacheCreation []int64
	uuid, parentUUID, typ, role, status, provider, requestID           []string
	sidechain, continues                                               []bool
	meta, extra, body, layout                                          [][]byte
	text, mustFollow                                                   []*string
	onDone                                                             []func(changed int64)
}

// add gathers a message; see queueMessage for what the arguments are.
func (r *messageRows) add(sid int64, h session.MessageHeader, status string, meta, extra []byte, u session.Usage,
	body endedBody, mustFollow any, onDone func(changed int64)) {
	r.sid, r.seq, r.turn = append(r.sid, sid), append(r.seq, h.Seq), append(r.turn, h.Turn)
	r.createdAt = append(r.createdAt, h.CreatedAt.UnixMilli())
	r.input, r.output = append(r.input, u.InputTokens), append(r.output, u.OutputTokens)
	r.cacheRead, r.cacheCreation = append(r.cacheRead, u.CacheReadInputTokens), append(r.cacheCreation, u.CacheCreationInputTokens)
	r.uuid, r.parentUUID = append(r.uuid, storableText(h.UUID)), append(r.parentUUID, storableText(h.ParentUUID))
	r.typ, r.role, r.status = append(r.typ, storableText(h.Type)), append(r.role, storableText(h.Role)), append(r.status, status)
	r.provider, r.requestID = append(r.provider, storableText(h.Provider)), append(r.requestID, storableText(h.RequestID))
	r.sidechain, r.continues = append(r.sidechain, h.IsSidechain), append(r.continues, h.Continues)
	r.meta, r.extra = append(r.meta, msgbody.JSONObject(meta)), append(r.extra, msgbody.JSONObject(extra))
	r.body, r.layout, r.text = append(r.body, body.body), append(r.layout, body.layout), append(r.text, textPtr(body.text))
	r.mustFollow, r.onDone = append(r.mustFollow, textPtr(mustFollow)), append(r.onDone, onDone)
}

// insertMessagesSQL inserts gathered messages as insertMessageSQL inserts one, in their order
// (ord), with the same refusals: a message whose seq is taken, or whose message to follow
// (must_follow) is not stored, is not inserted. The statement cannot see its own rows, so a
// message that must follow the one gathered before it in its session (chained) is inserted
// when that one is: each run of chained messages (chain) is cut at its first refusal, as the
// inserts one by one would have refused the rest of it. The refusals are judged on the keys
// alone, unnested apart from the bodies: window functions over the whole rows sorted W1's
// 17 MB of bodies (3-5 statements took the server 0.6-1.1 s, more than the 2,000 inserts).
// RETURNING names the rows inserted.
const insertMessagesSQL = `WITH f AS (
		SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $23::text[]) WITH ORDINALITY AS f(sid, seq, uuid, must_follow, ord)
	), linked AS (
		SELECT f.*, f.must_follow IS NOT NULL AND f.must_follow = lag(f.uuid) OVER (PARTITION BY f.sid ORDER BY f.ord) AS chained
		FROM f
	), judged AS (
		SELECT l.sid, l.ord, count(*) FILTER (WHERE NOT l.chained) OVER (PARTITION BY l.sid ORDER BY l.ord) AS chain,
			EXISTS (SELECT 1 FROM messages m WHERE m.sid = l.sid AND m.seq = l.seq)
			OR (l.must_follow IS NOT NULL AND NOT l.chained
				AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.sid = l.sid AND m.uuid = l.must_follow)) AS refused
		FROM linked l
	), cut AS (
		SELECT j.ord, bool_or(j.refused) OVER (PARTITION BY j.sid, j.chain ORDER BY j.ord) AS cut FROM judged j
	)
	INSERT INTO messages(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider,
		request_id, is_sidechain, continues, meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
		body, layout, search_text)
	SELECT sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider,
		request_id, is_sidechain, continues, meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
		body, layout, search_text
	FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[],
			$8::text[], $9::bigint[], $10::text[], $11::text[], $12::boolean[], $13::boolean[], $14::bytea[], $15::bytea[],
			$16::bigint[], $17::bigint[], $18::bigint[], $19::bigint[], $20::bytea[], $21::bytea[], $22::text[])
		WITH ORDINALITY AS r(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider, request_id,
			is_sidechain, continues, meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
			body, layout, search_text, ord)
	WHERE NOT r.ord = ANY (ARRAY(SELECT ord FROM cut WHERE cut))
	ORDER BY r.ord
	ON CONFLICT DO NOTHING RETURNING sid, seq`

// multiRowFrom is the fewest gathered rows sent as one multi-row statement (messages, tool
// uses); fewer go one statement each. The multi-row statement costs the server more than
// the rows it saves below that: 8 writer processes flushing every turn (about 4 messages a
// commit) wrote 1,940 messages/s with it against 2,535 one by one (pg_stat_statements: 2.2
// ms a statement of 3.6 rows, plus the planning of its window functions each time), while
// W1's commits of hundreds of messages take a third of the time.
const multiRowFrom = 16

// queueMessages adds the gathered messages to the pipeline, as one statement when there are
// multiRowFrom or more, whose returned rows tell each message's onDone whether it was
// inserted.
func (b *batchWriter) queueMessages() {
	r := b.messages
	if len(r.sid) == 0 {
		return
	}
	b.messages = messageRows{}
	if len(r.sid) < multiRowFrom {
		for i := range r.sid {
			b.pending.Queue(insertMessageSQL, r.sid[i], r.seq[i], r.uuid[i], r.parentUUID[i], r.typ[i], r.role[i], r.turn[i],
				r.status[i], r.createdAt[i], r.provider[i], r.requestID[i], r.sidechain[i], r.continues[i], r.meta[i], r.extra[i],
				r.input[i], r.output[i], r.cacheRead[i], r.cacheCreation[i], r.body[i], r.layout[i], r.text[i], r.mustFollow[i])
			b.results = append(b.results, pipelined{done: r.onDone[i]})
		}
		return
	}
	b.pending.Queue(insertMessagesSQL, r.sid, r.seq, r.uuid, r.parentUUID, r.typ, r.role, r.turn, r.status, r.createdAt,
		r.provider, r.requestID, r.sidechain, r.continues, r.meta, r.extra, r.input, r.output, r.cacheRead, r.cacheCreation,
		r.body, r.layout, r.text, r.mustFollow)
	b.results = append(b.results, pipelined{rows: func(rows pgx.Rows) error {
		inserted := map[msgbody.Key]bool{}
		for rows.Next() {
			var key msgbody.Key
			if err := rows.Scan(&key.SID, &key.Seq); err != nil {
				return err
			}
			inserted[key] = true
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for i, done := range r.onDone {
			key := msgbody.Key{SID: r.sid[i], Seq: r.seq[i]}
			if done != nil {
				var changed int64
				if inserted[key] {
					changed = 1
					delete(inserted, key) // a seq gathered twice is inserted once
				}
				done(changed)
			}
		}
		return nil
	}})
}
