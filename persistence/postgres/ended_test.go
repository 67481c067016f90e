package postgres

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// rowsOf returns whether message seq of session id has a body, and how many block rows it
// has.
func rowsOf(t *testing.T, s *Store, id string, seq int64) (bodied bool, blocks int64) {
	t.Helper()
	err := s.read(func(c conn) error {
		return c.query(`SELECT m.body IS NOT NULL, (SELECT count(*) FROM blocks b WHERE b.sid = m.sid AND b.seq = m.seq)
			FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.id = $1 AND m.seq = $2`, []any{id, seq}, func(row []any) error {
			bodied, blocks = row[0].(bool), row[1].(int64)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return bodied, blocks
}

// textBlock is a text block's JSON.
func textBlock(text string) []byte {
	return []byte(`{"type":"text","text":` + strconv.Quote(text) + `}`)
}

// TestEndedMessagesAreBodies writes a message in one commit, one streamed over several, and
// one that ends with a block left partial: the first two are one row each, with a body and
// no block row, found by search and read back block for block; the third keeps its block
// rows. A block of the streamed message is searchable once complete, before the message
// ends; the text of a message with a body is not kept beside it.
func TestEndedMessagesAreBodies(t *testing.T) {
	store := openAt(t, freshURL(t))
	m := session.NewManager(store)
	s := newSession(t, m)
	id := s.ID()
	// written flushes, then checks that message seq has a body or not, and its block rows.
	written := func(seq int64, wantBody bool, wantBlocks int64, what string) {
		t.Helper()
		if err := store.Flush(); err != nil {
			t.Fatal(err)
		}
		if bodied, blocks := rowsOf(t, store, id, seq); bodied != wantBody || blocks != wantBlocks {
			t.Errorf("%s: body %v, %d block rows; want body %v and %d", what, bodied, blocks, wantBody, wantBlocks)
		}
	}
	begin := func(seq int64) {
		store.Apply(session.BeginMessage{SessionID: id, Header: session.MessageHeader{Seq: seq,
			UUID: "0190a0b0-0000-7000-8000-00000000010" + strconv.FormatInt(seq, 10), Type: "assistant", Role: "assistant", CreatedAt: time.Now()}})
	}
	put := func(seq int64, idx int, text string, partial bool) {
		store.Apply(session.PutBlock{SessionID: id, Seq: seq, Index: idx, Partial: partial, JSON: textBlock(text)})
	}
	end := func(seq int64) {
		store.Apply(session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete})
	}

	begin(0)
	put(0, 0, "lapwing whole", false)
	put(0, 1, "second block", false)
	end(0)
	written(0, true, 0, "a message written in one commit")

	begin(1)
	put(1, 0, "curlew first", false)
	put(1, 1, "curl", true)
	written(1, false, 2, "a message streaming")
	if got := countHits(t, m, "curlew"); got != 1 {
		t.Errorf("a complete block of a message streaming: %d hits, want 1", got)
	}
	put(1, 1, "curlew second", false)
	end(1)
	written(1, true, 0, "a message streamed over commits, ended")

	begin(2)
	put(2, 0, "plover kept", false)
	put(2, 1, "cut off", true)
	end(2)
	written(2, false, 2, "a message ended with a partial block")

	for text, want := range map[string]int{"lapwing": 1, "curlew": 1, "plover": 1, "second": 2, "cut": 0} {
		if got := countHits(t, m, text); got != want {
			t.Errorf("search %q: %d hits, want %d", text, got, want)
		}
	}
	// The text of a message with a body is cut from it: no second copy is kept. A live body
	// is stored plain, in a column the server compresses with lz4 (this test server has it).
	err := store.read(func(c conn) error {
		return c.query(`SELECT (SELECT count(*) FROM messages WHERE body IS NOT NULL AND search_text IS NOT NULL),
				(SELECT count(*) FROM messages WHERE body IS NOT NULL AND substr(body, 1, 1) <> '{'),
				(SELECT attcompression::text FROM pg_attribute WHERE attrelid = 'messages'::regclass AND attname = 'body')`,
			nil, func(row []any) error {
				if n := row[0].(int64); n != 0 {
					t.Errorf("%d messages keep their search text beside their body", n)
				}
				if n := row[1].(int64); n != 0 {
					t.Errorf("%d live bodies stored packed, want plain", n)
				}
				if row[2] != "l" {
					t.Errorf("the body column's compression is %q, want lz4", row[2])
				}
				return nil
			})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"lapwing whole", "second block"}, {"curlew first", "curlew second"}, {"plover kept", "cut off"}}
	var got [][]string
	err = store.ScanMessages(id, func(msg *session.StoredMessage) error {
		var texts []string
		for _, b := range msg.Blocks {
			texts = append(texts, string(b))
		}
		got = append(got, texts)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d messages, want %d", len(got), len(want))
	}
	for i := range want {
		for j, text := range want[i] {
			if j >= len(got[i]) || got[i][j] != string(textBlock(text)) {
				t.Errorf("message %d block %d: %v, want %s", i, j, got[i], textBlock(text))
			}
		}
	}
}

// TestImportedBodiesArePackedWithTheDictionary imports a record (its Ops in one Apply, the
// end marked imported): its body is stored packed with the import's dictionary, as on
// SQLite, and reads back as written.
func TestImportedBodiesArePackedWithTheDictionary(t *testing.T) {
	store := openAt(t, freshURL(t))
	s := newSession(t, session.NewManager(store))
	text := strings.Repeat("the importer packs this text with its dictionary ", 40)
	store.Apply(session.BeginMessage{SessionID: s.ID(), Header: session.MessageHeader{Seq: 0,
		UUID: "0190a0b0-0000-7000-8000-000000000200", Type: "assistant", Role: "assistant", CreatedAt: time.Now()}},
		session.PutBlock{SessionID: s.ID(), Seq: 0, Index: 0, JSON: textBlock(text)},
		session.EndMessage{SessionID: s.ID(), Seq: 0, Status: session.MessageComplete, Imported: true})
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	err := store.read(func(c conn) error {
		return c.query(`SELECT body FROM messages WHERE body IS NOT NULL`, nil, func(row []any) error {
			if body := row[0].([]byte); !bodycodec.IsDictPacked(body) {
				t.Errorf("the imported body is stored as %.20q…, want it packed with the dictionary", body)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]byte
	if err := store.ScanMessages(s.ID(), func(m *session.StoredMessage) error {
		blocks = append(blocks, m.Blocks...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || string(blocks[0]) != string(textBlock(text)) {
		t.Errorf("read back %d blocks, want the one imported", len(blocks))
	}
}

// TestAnEndWithoutTheBlocksKeepsTheRows ends, through a second store on the same schema, a
// message the first began and wrote a block of: the second's writer does not hold the
// blocks, so the message keeps its block rows and its searchable text, and ends.
func TestAnEndWithoutTheBlocksKeepsTheRows(t *testing.T) {
	url := freshURL(t)
	first, second := openAt(t, url), openAt(t, url)
	s := newSession(t, session.NewManager(first))
	first.Apply(session.BeginMessage{SessionID: s.ID(), Header: session.MessageHeader{Seq: 0,
		UUID: "0190a0b0-0000-7000-8000-000000000300", Type: "assistant", Role: "assistant", CreatedAt: time.Now()}},
		session.PutBlock{SessionID: s.ID(), Seq: 0, Index: 0, JSON: textBlock("dunlin before the end")})
	if err := first.Flush(); err != nil {
		t.Fatal(err)
	}
	second.Apply(session.EndMessage{SessionID: s.ID(), Seq: 0, Status: session.MessageComplete})
	if err := second.Flush(); err != nil {
		t.Fatal(err)
	}
	if bodied, blocks := rowsOf(t, second, s.ID(), 0); bodied || blocks != 1 {
		t.Errorf("ended without its blocks: body %v, %d block rows; want its row", bodied, blocks)
	}
	if got := countHits(t, session.NewManager(second), "dunlin"); got != 1 {
		t.Errorf("search after the end: %d hits, want 1", got)
	}
	err := second.ScanMessages(s.ID(), func(m *session.StoredMessage) error {
		if m.Status != session.MessageComplete || len(m.Blocks) != 1 {
			t.Errorf("read as %s with %d blocks, want complete with 1", m.Status, len(m.Blocks))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
