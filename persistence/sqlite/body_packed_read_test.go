package sqlite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// toolOutput returns a block of about n bytes of code-like text that packs well, with
// word somewhere in its middle.
func toolOutput(n int, word string) []byte {
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		if i == 40 {
			sb.WriteString(word + " ")
		}
		sb.WriteString("func handler(w http.ResponseWriter, r *http.Request) { return nil } // line ")
	}
	block, _ := json.Marshal(map[string]string{"type": "text", "text": sb.String()})
	return block
}

// TestPackedBodiesReadEverywhere: a message whose body is stored packed reads the same
// through every reader of bodies (scan, encoded restore, backward scan, context scan),
// is found by search with a snippet, is renamed by forks of either id length, counts in
// its turn, and leaves the search index when its session is deleted; with s2, as a live
// message is stored, and with zstd and a dictionary, as an imported one is (persistence/bodycodec).
func TestPackedBodiesReadEverywhere(t *testing.T) {
	for marker, imported := range map[byte]bool{bodycodec.PackedMarker: false, bodycodec.DictMarker: true} {
		t.Run(fmt.Sprintf("imported %v", imported), func(t *testing.T) { packedBodiesReadEverywhere(t, marker, imported) })
	}
}

func packedBodiesReadEverywhere(t *testing.T, marker byte, imported bool) {
	s, path := openTemp(t)
	big := toolOutput(3*bodycodec.LivePackAbove, "capybara")
	s.Apply(session.CreateSession{Info: newInfo("s1")}, begin("s1", 0),
		session.PutBlock{SessionID: "s1", Seq: 0, Index: 0, JSON: []byte(`{"type":"text","text":"small one"}`)},
		session.PutBlock{SessionID: "s1", Seq: 0, Index: 1, JSON: big},
		session.EndMessage{SessionID: "s1", Seq: 0, Status: session.MessageComplete, Imported: imported},
		begin("s1", 1),
		session.PutBlock{SessionID: "s1", Seq: 1, Index: 0, JSON: []byte(`{"type":"text","text":"plain short"}`)},
		session.EndMessage{SessionID: "s1", Seq: 1, Status: session.MessageComplete})
	indexed(t, s)
	db := rawDB(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE substr(body, 1, 1) = ? AND length(body) < ?`, []byte{marker}, len(big)/2); n != 1 {
		t.Fatalf("%d packed bodies under half the block's size, want 1", n)
	}

	wantBlocks := func(where string, blocks [][]byte) {
		t.Helper()
		if len(blocks) != 2 || !bytes.Equal(blocks[1], big) || string(blocks[0]) != `{"type":"text","text":"small one"}` {
			t.Errorf("%s: the packed message read back as %d blocks", where, len(blocks))
		}
	}
	wantBlocks("ScanMessages", scan(t, s, "s1")[0].Blocks)
	err := s.ScanMessagesBackward("s1", 0, func(m *session.StoredMessage) bool {
		if m.Seq == 0 {
			wantBlocks("ScanMessagesBackward", m.Blocks)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.ScanContext("s1", 0, 0, func(m *tokens.ContextMessage) error {
		wantBlocks("ScanContext", m.Blocks)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, forkID := range []string{"s1", "s2", "a-fork-with-a-longer-id"} {
		if forkID != "s1" {
			fork := newInfo(forkID)
			fork.ForkedFrom = &session.ForkOrigin{SessionID: "s1", UUID: "uuid-1"}
			s.Apply(session.ForkSession{From: "s1", Info: fork, Seqs: []int64{0, 1}})
			if err := s.Sync(); err != nil {
				t.Fatal(err)
			}
		}
		var env struct {
			SessionID string `json:"sessionId"`
			Message   struct{ Content []json.RawMessage }
		}
		err := s.ScanEncoded(forkID, 0, func(m *session.StoredMessage) error {
			if m.Seq == 0 {
				return json.Unmarshal(bytes.Join(m.Encoded, nil), &env)
			}
			return nil
		})
		if err != nil || env.SessionID != forkID || len(env.Message.Content) != 2 || !bytes.Equal(env.Message.Content[1], big) {
			t.Errorf("ScanEncoded of %s: session %q, %d blocks, %v", forkID, env.SessionID, len(env.Message.Content), err)
		}
	}

	hits, err := s.Search(catalog.SearchQuery{Text: "capybara", Limit: 10})
	if err != nil || len(hits) != 1 || !strings.Contains(hits[0].Snippet, "capybara") {
		t.Fatalf("search inside packed bodies: %+v, %v; want the message (forks share its uuid) with a snippet", hits, err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_search WHERE body_search MATCH 'capybara'`); n != 3 {
		t.Errorf("%d packed bodies indexed for the word, want 3 (the message and its forks)", n)
	}
	if turns, err := s.Turns("s1"); err != nil || len(turns) != 1 || turns[0].EndIndex != 1 {
		t.Errorf("turns %+v, %v: want one turn of messages 0 to 1", turns, err)
	}
	s.Apply(session.DeleteSession{SessionID: "s2"})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_search WHERE body_search MATCH 'capybara'`); n != 2 {
		t.Errorf("%d packed bodies indexed for the word after deleting a fork, want 2", n)
	}
	// FTS5's check compares the index with the text the view gives from the bodies.
	exec(t, db, `INSERT INTO body_search(body_search) VALUES ('integrity-check')`)
}
