package sqlite

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// twoSessions writes two sessions of one prompt each, with a large tool output in the first
// (a blob), and returns the store, its path and the ids.
func twoSessions(t *testing.T) (*Store, string, *session.Manager, string, string) {
	t.Helper()
	s, path := openTemp(t)
	m := session.NewManager(s)
	a := mustCreate(t, m, session.CreateOptions{ProjectPath: "/a"})
	b := mustCreate(t, m, session.CreateOptions{ProjectPath: "/b"})
	if _, err := a.AppendUserMessage([]byte(`"` + strings.Repeat("x", BlobThreshold+1) + `"`)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.AppendUserMessage([]byte(`"fine"`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	return s, path, m, a.ID(), b.ID()
}

func TestListingSurvivesAColumnOfTheWrongType(t *testing.T) {
	s, path, _, a, b := twoSessions(t)
	exec(t, rawDB(t, path), `UPDATE sessions SET message_count = 'many', created_at = x'00' WHERE id = ?`, a)
	list, err := s.ListSessions(catalog.ListFilter{})
	if err != nil {
		t.Fatalf("listing failed: %v", err)
	}
	if len(list) != 2 {
		t.Fatalf("%d sessions listed, want 2", len(list))
	}
	for _, info := range list {
		switch info.ID {
		case a:
			if info.Status != session.StatusCorrupted || info.Corruption != "unreadable columns: created_at, message_count" {
				t.Errorf("damaged session: status %q, corruption %q", info.Status, info.Corruption)
			}
		case b:
			if info.Status != session.StatusActive || info.MessageCount != 1 {
				t.Errorf("sound session listed as %+v", info)
			}
		}
	}
}

func TestScanReportsDamagedMessagesAsSessionCorrupt(t *testing.T) {
	cases := map[string]string{
		"a message column of the wrong type":      `UPDATE messages SET created_at = 'yesterday' WHERE sid = (SELECT sid FROM sessions WHERE id = ?)`,
		"a layout that does not fit its body":     `UPDATE messages SET layout = x'ff' WHERE sid = (SELECT sid FROM sessions WHERE id = ?)`,
		"a packed body that does not unpack":      `UPDATE messages SET body = x'00ffffffff0f' WHERE sid = (SELECT sid FROM sessions WHERE id = ?)`,
		"an imported body whose frame is damaged": `UPDATE messages SET body = x'0128b52ffd00ff' WHERE sid = (SELECT sid FROM sessions WHERE id = ?)`,
		"an imported body naming a dictionary this build lacks": `UPDATE messages SET body = x'` + hex.EncodeToString(unknownDictBody(t)) +
			`' WHERE sid = (SELECT sid FROM sessions WHERE id = ?)`,
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			s, path, m, a, b := twoSessions(t)
			exec(t, rawDB(t, path), damage, a)
			err := s.ScanMessages(a, func(*session.StoredMessage) error { return nil })
			if !errors.Is(err, session.ErrSessionCorrupt) {
				t.Fatalf("scan of the damaged session: %v, want ErrSessionCorrupt", err)
			}
			if msgs := scan(t, s, b); len(msgs) != 1 {
				t.Errorf("the other session has %d messages, want 1", len(msgs))
			}

			// Reading it through a Session marks it corrupted for every later listing.
			sess, err := m.Open(a)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sess.Messages(false); !errors.Is(err, session.ErrSessionCorrupt) {
				t.Fatalf("Messages: %v, want ErrSessionCorrupt", err)
			}
			list, err := catalog.List(m, catalog.ListFilter{ProjectPath: "/a"})
			if err != nil || len(list) != 1 || list[0].Status != session.StatusCorrupted || list[0].Corruption == "" {
				t.Errorf("listing after the read: %+v, %v", list, err)
			}
		})
	}
}

// unknownDictBody returns a body packed as an imported one (a zstd frame after
// bodycodec.DictMarker) but naming a dictionary (id 99) that this build does not have.
func unknownDictBody(t testing.TB) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(99, []byte(`{"type":"text","text":"`)))
	if err != nil {
		t.Fatal(err)
	}
	return enc.EncodeAll([]byte(`{"type":"user","message":{"content":[{"type":"text","text":"hello"}]}}`), []byte{bodycodec.DictMarker})
}
