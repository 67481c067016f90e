package sqlite

import (
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestBodyTooDeepForSQLiteJSON: a message whose content nests deeper than SQLite's JSON
// functions take is stored and read back, is found by its other blocks (searched_text reads
// bodies in Go, at any depth) without failing the index, counts in the turns when it was
// interrupted, and its session can be deleted, which takes it out of the index.
func TestBodyTooDeepForSQLiteJSON(t *testing.T) {
	s, _ := openTemp(t)
	deep := `{"type":"tool_result","tool_use_id":"t1","content":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`
	s.Apply(session.CreateSession{Info: newInfo("s1")},
		begin("s1", 0),
		session.PutBlock{SessionID: "s1", Seq: 0, Index: 0, JSON: []byte(`{"type":"text","text":"findable walrus"}`)},
		session.PutBlock{SessionID: "s1", Seq: 0, Index: 1, JSON: []byte(deep)},
		session.EndMessage{SessionID: "s1", Seq: 0, Status: session.MessageComplete},
		begin("s1", 1),
		session.PutBlock{SessionID: "s1", Seq: 1, Index: 0, JSON: []byte(`{"type":"text","text":"another walrus"}`)},
		session.EndMessage{SessionID: "s1", Seq: 1, Status: session.MessageComplete},
		begin("s1", 2),
		session.PutBlock{SessionID: "s1", Seq: 2, Index: 0, JSON: []byte(deep)},
		session.EndMessage{SessionID: "s1", Seq: 2, Status: session.MessageInterrupted})
	indexed(t, s)
	msgs := scan(t, s, "s1")
	if len(msgs) != 3 || string(msgs[0].Blocks[1]) != deep || string(msgs[2].Blocks[0]) != deep {
		t.Fatalf("read back %d messages, want 3 with the deep blocks whole", len(msgs))
	}
	hits, err := s.Search(catalog.SearchQuery{Text: "walrus", Limit: 10})
	if err != nil {
		t.Fatalf("search beside a body too deep for SQLite's JSON: %v", err)
	}
	if len(hits) != 2 {
		t.Errorf("hits %+v, want both messages", hits)
	}
	// The interrupted message is not empty, so it counts in its turn.
	if turns, err := s.Turns("s1"); err != nil || len(turns) != 1 || turns[0].EndIndex != 2 {
		t.Errorf("turns %+v, %v: want one turn of messages 0 to 2", turns, err)
	}
	s.Apply(session.DeleteSession{SessionID: "s1"})
	if err := s.Sync(); err != nil {
		t.Fatalf("deleting the session: %v", err)
	}
	if hits, err := s.Search(catalog.SearchQuery{Text: "walrus", Limit: 10}); err != nil || len(hits) != 0 {
		t.Errorf("after the delete: hits %+v, %v; want none", hits, err)
	}
}
