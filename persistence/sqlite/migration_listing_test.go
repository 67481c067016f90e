package sqlite

import (
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestListingMigrationFromV9: a store written before migration 12 loses the per-message
// trigger and lists from the covering index, with the listing it had; a message written
// then lists the session again (archived before), with that message's time.
func TestListingMigrationFromV9(t *testing.T) {
	path, _ := copyV9Store(t)
	db := rawDB(t, path)
	before := queryInt(t, db, `SELECT SUM(message_count) FROM sessions`)
	s := openAt(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'messages_update_session'`); n != 0 {
		t.Error("the per-message listing trigger is still there")
	}
	var plan []string
	rows, err := db.Query(`EXPLAIN QUERY PLAN SELECT id, title, message_count, updated_at FROM sessions
		WHERE archived_at = 0 ORDER BY updated_at DESC, sid DESC`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, parent, unused int
		var detail string
		rows.Scan(&id, &parent, &unused, &detail)
		plan = append(plan, detail)
	}
	rows.Close()
	if got := strings.Join(plan, "; "); !strings.Contains(got, "COVERING INDEX sessions_listing") || strings.Contains(got, "TEMP B-TREE") {
		t.Errorf("the listing's plan: %s; want one scan of the covering index sessions_listing", got)
	}
	list, err := s.ListSessions(catalog.ListFilter{Fields: []string{"id", "title", "messageCount", "updatedAt"}})
	if err != nil || len(list) != 2 || list[0].MessageCount+list[1].MessageCount != before {
		t.Fatalf("listing after the migration: %+v, %v; want 2 sessions holding %d messages", list, err, before)
	}

	id := list[1].ID
	exec(t, db, `UPDATE sessions SET archived_at = 1 WHERE id = ?`, id)
	at := time.UnixMilli(1_800_000_000_000).UTC()
	s.Apply(session.BeginMessage{SessionID: id, Header: session.MessageHeader{
		Seq: list[1].MessageCount, UUID: "after-12", Type: session.TypeUser, Role: "user", CreatedAt: at}},
		session.PutBlock{SessionID: id, Seq: list[1].MessageCount, JSON: []byte(`{"type":"text","text":"again"}`)},
		session.EndMessage{SessionID: id, Seq: list[1].MessageCount, Status: session.MessageComplete})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	info, err := s.LoadSession(id)
	if err != nil || info.Info.ArchivedAt != (time.Time{}) || !info.Info.LastMessageAt.Equal(at) ||
		info.Info.MessageCount != list[1].MessageCount+1 {
		t.Errorf("after a message: %+v, %v; want unarchived, last message at %v, one more message", info.Info, err, at)
	}
	if n := queryInt(t, db, `SELECT is_open FROM sessions WHERE id = ?`, id); n != 1 {
		t.Errorf("is_open %d after a message, want 1", n)
	}
}

// An archive or a close after a message, in the same write batch as the message, stands:
// the listing's update for the batch's messages comes before them, as the trigger's did.
func TestArchiveAndCloseAfterAMessageInItsBatchStand(t *testing.T) {
	s, path := openTemp(t)
	at := time.UnixMilli(1_700_000_000_000).UTC()
	s.Apply(session.CreateSession{Info: session.SessionInfo{ID: "s1", Status: session.StatusActive, CreatedAt: at, UpdatedAt: at}})
	hdr := session.MessageHeader{Seq: 0, UUID: "u1", Type: session.TypeUser, Role: "user", CreatedAt: at.Add(time.Second)}
	s.Apply(
		session.BeginMessage{SessionID: "s1", Header: hdr},
		session.PutBlock{SessionID: "s1", Seq: 0, JSON: []byte(`{"type":"text","text":"hi"}`)},
		session.EndMessage{SessionID: "s1", Seq: 0, Status: session.MessageComplete},
		session.SetArchived{SessionID: "s1", At: at.Add(2 * time.Second)},
		session.CloseSession{SessionID: "s1", At: at.Add(2 * time.Second)},
	)
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	st, err := s.LoadSession("s1")
	if err != nil || st.Info.ArchivedAt.IsZero() || !st.Info.LastMessageAt.Equal(hdr.CreatedAt) {
		t.Errorf("archived at %v, last message at %v (%v); want archived, last message at %v", st.Info.ArchivedAt, st.Info.LastMessageAt, err, hdr.CreatedAt)
	}
	if n := queryInt(t, rawDB(t, path), `SELECT is_open FROM sessions WHERE id = 's1'`); n != 0 {
		t.Errorf("is_open %d after a close in the batch of a message, want 0", n)
	}
	list, err := s.ListSessions(catalog.ListFilter{})
	if err != nil || len(list) != 0 {
		t.Errorf("the archived session is listed: %+v, %v", list, err)
	}
}

// A fork lists the time of the last record it copied, as the trigger did per copied row.
func TestForkListsItsLastMessageTime(t *testing.T) {
	path, _ := copyV9Store(t)
	s := openAt(t, path)
	m := session.NewManager(s)
	list, err := s.ListSessions(catalog.ListFilter{})
	if err != nil || len(list) == 0 {
		t.Fatal(list, err)
	}
	origin, err := m.Open(list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	fork, err := branches.Fork(origin, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	last := queryInt(t, rawDB(t, path), `SELECT created_at FROM messages WHERE sid = (SELECT sid FROM sessions WHERE id = ?) ORDER BY seq DESC LIMIT 1`, list[0].ID)
	st, err := s.LoadSession(fork.ID())
	if err != nil || st.Info.LastMessageAt.UnixMilli() != last || last == 0 {
		t.Errorf("the fork's last message at %v (%v), want %d ms", st.Info.LastMessageAt, err, last)
	}
}
