package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// oldMessage is a message of a store made before migration 4, as its writer stored it: a
// row and its block rows.
type oldMessage struct {
	session      string
	seq          int64
	role, status string
	blocks       []string
	partialAt    int // the index of a partial block, -1 for none
	wantsBody    bool
}

// oldStore makes, at url, a store as migrations 1 to 3 left it and writes into it what the
// writer of that schema wrote: each message a row without a body and a block row per block
// with its search text. It returns the messages it wrote.
func oldStore(t *testing.T, url string) []oldMessage {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	schema := firstSchema(cfg.RuntimeParams["search_path"])
	setup := []string{`CREATE SCHEMA ` + pgx.Identifier{schema}.Sanitize(),
		`CREATE TABLE schema_version (version BIGINT PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)`}
	for _, m := range migrations[:3] {
		setup = append(setup, m.statements...)
		setup = append(setup, `INSERT INTO schema_version VALUES (`+strconv.FormatInt(m.version, 10)+`, '', 0)`)
	}
	for _, stmt := range setup {
		if _, err := c.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	var msgs []oldMessage
	for s := 0; s < 3; s++ {
		id := fmt.Sprintf("0190a0b0-0000-7000-8000-00000000000%d", s)
		if _, err := c.Exec(ctx, `INSERT INTO sessions(id, created_at, updated_at) VALUES ($1, 0, 0)`, id); err != nil {
			t.Fatal(err)
		}
		for seq := int64(0); seq < 12; seq++ {
			m := oldMessage{session: id, seq: seq, role: "assistant", status: "complete", partialAt: -1, wantsBody: true,
				blocks: []string{`{"type":"text","text":"osprey ` + strconv.Itoa(s) + ` ` + strconv.FormatInt(seq, 10) + `"}`,
					`{"type":"tool_use","id":"toolu_` + strconv.FormatInt(seq, 10) + `","name":"Read","input":{"path":"a.go"}}`}}
			switch seq {
			case 3: // not ASCII: the body holds it escaped
				m.blocks[0] = `{"type":"text","text":"héron ✓"}`
			case 5: // interrupted before any block: no body, still empty
				m.status, m.blocks, m.wantsBody = "interrupted", nil, false
			case 7: // a partial block: it keeps its rows
				m.status, m.partialAt, m.wantsBody = "interrupted", 1, false
			case 9: // not a message
				m.role, m.blocks, m.wantsBody = "", nil, false
			case 11: // left streaming by a writer that is gone: marked interrupted, then moved
				m.status = "streaming"
			}
			msgs = append(msgs, m)
			if _, err := c.Exec(ctx, `INSERT INTO messages(sid, seq, uuid, type, role, turn, status, created_at, meta)
				SELECT sid, $2, $3, 'assistant', $4, 0, $5, 1700000000000, '{"model":"m"}' FROM sessions WHERE id = $1`,
				id, seq, fmt.Sprintf("u-%d-%d", s, seq), m.role, m.status); err != nil {
				t.Fatal(err)
			}
			for i, b := range m.blocks {
				text, _ := searchText([]byte(b))
				if _, err := c.Exec(ctx, `INSERT INTO blocks(sid, seq, idx, partial, body, search_text)
					SELECT sid, $2, $3, $4, $5, $6 FROM sessions WHERE id = $1`, id, seq, i, i == m.partialAt, []byte(b), text); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return msgs
}

// checkMoved reads every message of msgs through store and checks it against what was
// written, and that the rows of each are in one form: a body and no block rows, or block
// rows and no body, the body exactly when the message can have one (moved says the move has
// ended; before, a message that can have a body may still be in rows).
func checkMoved(t *testing.T, pool *pgxpool.Pool, store *Store, msgs []oldMessage, moved bool) {
	t.Helper()
	ctx := context.Background()
	for _, want := range msgs {
		var bodied bool
		var blockRows int
		err := pool.QueryRow(ctx, `SELECT m.body IS NOT NULL, (SELECT count(*) FROM blocks b WHERE b.sid = m.sid AND b.seq = m.seq)
			FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.id = $1 AND m.seq = $2`, want.session, want.seq).Scan(&bodied, &blockRows)
		if err != nil {
			t.Fatalf("message %d of %s: %v", want.seq, want.session, err)
		}
		if bodied && (blockRows != 0 || !want.wantsBody) {
			t.Errorf("message %d of %s has a body and %d block rows (wants a body: %v)", want.seq, want.session, blockRows, want.wantsBody)
		}
		if !bodied && (blockRows != len(want.blocks) || (moved && want.wantsBody)) {
			t.Errorf("message %d of %s has no body and %d block rows of %d (moved: %v)", want.seq, want.session, blockRows, len(want.blocks), moved)
		}
	}
	if store == nil {
		return
	}
	seen := 0
	for _, id := range []string{msgs[0].session, msgs[12].session, msgs[24].session} {
		err := store.ScanMessages(id, func(m *session.StoredMessage) error {
			want := msgs[seen]
			seen++
			if m.Seq != want.seq || m.Role != want.role || m.UUID == "" || string(m.Meta) != `{"model":"m"}` {
				return fmt.Errorf("message %d of %s read as seq %d role %q meta %s", want.seq, id, m.Seq, m.Role, m.Meta)
			}
			if len(m.Blocks) != len(want.blocks) {
				return fmt.Errorf("message %d of %s: %d blocks, want %d", want.seq, id, len(m.Blocks), len(want.blocks))
			}
			for i, b := range m.Blocks {
				if !sameJSON(b, []byte(want.blocks[i])) {
					return fmt.Errorf("message %d of %s, block %d: %s, want %s", want.seq, id, i, b, want.blocks[i])
				}
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
	if seen != len(msgs) {
		t.Errorf("read %d messages, want %d", seen, len(msgs))
	}
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// cancelAfter is a pgx tracer that cancels its context once a number of statements have
// started: a kill at that point of a migration.
type cancelAfter struct {
	left   atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	if c.left.Add(-1) == 0 {
		c.cancel()
	}
	return ctx
}

func (c *cancelAfter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TestBodiesMigrationResumes makes a store with the schema and rows of the writer before
// migration 4, migrates its schema, and moves its messages into bodies in small batches,
// stopped at a different statement each time (between two batches, between the UPDATE and
// the DELETE of one, before the first commit): what was moved is moved whole, what was not
// keeps its rows, and opening the store then ends the move with every message read back as
// it was written, and search finding the text of the moved ones.
func TestBodiesMigrationResumes(t *testing.T) {
	for _, cutAt := range []int64{1, 4, 5, 10, 14} {
		t.Run(fmt.Sprintf("stopped at statement %d", cutAt), func(t *testing.T) {
			url := freshURL(t)
			msgs := oldStore(t, url)
			cfg, err := pgxpool.ParseConfig(url)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tracer := &cancelAfter{cancel: cancel}
			tracer.left.Store(1 << 62) // the schema migration runs uncut
			cfg.ConnConfig.Tracer = tracer
			pool, err := pgxpool.NewWithConfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			if err := migrate(ctx, pool, firstSchema(cfg.ConnConfig.RuntimeParams["search_path"])); err != nil {
				t.Fatal(err)
			}
			// Streaming messages are marked interrupted before the move, as Open does.
			if _, err := pool.Exec(ctx, `UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'`); err != nil {
				t.Fatal(err)
			}
			tracer.left.Store(cutAt)
			if err := settleBodies(ctx, pool, 7); err == nil {
				t.Fatalf("the move stopped at statement %d did not fail", cutAt)
			}
			check, err := pgxpool.New(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer check.Close()
			checkMoved(t, check, nil, msgs, false)
			var done bool
			if err := check.QueryRow(context.Background(), `SELECT done_at IS NOT NULL FROM background_migrations WHERE name = 'bodies'`).Scan(&done); err != nil || done {
				t.Errorf("the move stopped half way is recorded done (%v)", err)
			}
			store := openAt(t, url) // goes on with the move
			checkMoved(t, check, store, msgs, true)
			var indexed bool
			if err := check.QueryRow(context.Background(), `SELECT to_regclass('messages_without_body') IS NOT NULL`).Scan(&indexed); err != nil || indexed {
				t.Errorf("the index of the move is kept after it ended (%v)", err)
			}
			// Every message with the word: those moved, and the one whose complete block it is in
			// beside a partial one.
			if got := countHits(t, session.NewManager(store), "osprey"); got != 3*9 {
				t.Errorf("search after the move: %d hits, want the 27 messages with the word", got)
			}
			hits, err := catalog.Search(session.NewManager(store), catalog.SearchQuery{Text: "héron", Highlight: [2]string{"[", "]"}})
			if err != nil || len(hits) != 3 || hits[0].Snippet != "[héron] ✓" {
				t.Errorf("search for a moved message's non-ASCII text: %+v, %v", hits, err)
			}
		})
	}
}
