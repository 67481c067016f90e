package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// TestLargeBlocksAreStoredPacked: a complete block over bodycodec.LivePackAbove is stored
// packed with s2 and smaller, a small one and a partial checkpoint plain; every reader of
// blocks (the scan, the backward scan, the context scan) gets the JSON back byte for byte,
// search still finds a word of the packed block, and a packed block that does not unpack
// is ErrSessionCorrupt, not other text.
func TestLargeBlocksAreStoredPacked(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	const id = "packed"
	now := time.Now()
	header := func(seq int64) session.MessageHeader {
		return session.MessageHeader{Seq: seq, UUID: "uuid-" + string(rune('a'+seq)), Type: session.TypeAssistant, Role: "assistant", CreatedAt: now, Meta: []byte(`{}`)}
	}
	small := []byte(`{"type":"text","text":"a short reply"}`)
	var text strings.Builder
	for text.Len() < 4*bodycodec.LivePackAbove {
		text.WriteString("func handler(w http.ResponseWriter, r *http.Request) { return nil } // okapi ")
	}
	large, _ := json.Marshal(map[string]string{"type": "text", "text": text.String()})
	store.Apply(session.CreateSession{Info: session.SessionInfo{ID: id, CreatedAt: now, UpdatedAt: now, Status: session.StatusActive}},
		session.BeginMessage{SessionID: id, Header: header(0)},
		session.PutBlock{SessionID: id, Seq: 0, Index: 0, JSON: small},
		session.PutBlock{SessionID: id, Seq: 0, Index: 1, JSON: large},
		session.EndMessage{SessionID: id, Seq: 0, Status: session.MessageComplete, Meta: []byte(`{}`), Extra: []byte(`{}`)},
		session.BeginMessage{SessionID: id, Header: header(1)},
		session.PutBlock{SessionID: id, Seq: 1, Index: 0, JSON: large, Partial: true})
	if err := store.Sync(); err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	db, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	rows, err := db.Query(ctx, `SELECT seq, idx, body FROM blocks ORDER BY seq, idx`)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]byte, error) {
		var seq, idx int64
		var body []byte
		return body, r.Scan(&seq, &idx, &body)
	})
	if err != nil || len(stored) != 3 {
		t.Fatalf("%d block rows, %v; want 3", len(stored), err)
	}
	if !bytes.Equal(stored[0], small) || !bytes.Equal(stored[2], large) {
		t.Errorf("the small block or the partial checkpoint is not stored plain: %.20q, %.20q", stored[0], stored[2])
	}
	if stored[1][0] != bodycodec.PackedMarker || len(stored[1]) > len(large)/2 {
		t.Errorf("the %d-byte block is stored as %d bytes starting with %#x, want packed", len(large), len(stored[1]), stored[1][0])
	}

	want := func(where string, blocks [][]byte) {
		t.Helper()
		if len(blocks) != 2 || !bytes.Equal(blocks[0], small) || !bytes.Equal(blocks[1], large) {
			t.Errorf("%s: message 0 read back as %d blocks, not as written", where, len(blocks))
		}
	}
	err = store.ScanMessages(id, func(m *session.StoredMessage) error {
		if m.Seq == 0 {
			want("ScanMessages", m.Blocks)
		} else if len(m.Blocks) != 1 || !bytes.Equal(m.Blocks[0], large) {
			t.Errorf("ScanMessages: the streaming message's checkpoint read back as %d blocks", len(m.Blocks))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = store.ScanMessagesBackward(id, 0, func(m *session.StoredMessage) bool {
		if m.Seq == 0 {
			want("ScanMessagesBackward", m.Blocks)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	err = store.ScanContext(id, 0, 0, func(m *tokens.ContextMessage) error {
		want("ScanContext", m.Blocks)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if hits, err := store.Search(catalog.SearchQuery{Text: "okapi", Limit: 5}); err != nil || len(hits) != 1 {
		t.Errorf("search for a word of the packed block: %d hits, %v; want 1", len(hits), err)
	}

	if _, err := db.Exec(ctx, `UPDATE blocks SET body = '\x00ffffffff0f'::bytea WHERE seq = 0 AND idx = 1`); err != nil {
		t.Fatal(err)
	}
	if err := store.ScanMessages(id, func(*session.StoredMessage) error { return nil }); !errors.Is(err, session.ErrSessionCorrupt) {
		t.Errorf("a packed block that does not unpack: %v, want ErrSessionCorrupt", err)
	}
}
