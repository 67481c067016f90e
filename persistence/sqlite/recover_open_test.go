package sqlite

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/procowner"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

func TestRecoveryReportsSessionsLeftOpenByADeadProcess(t *testing.T) {
	path, streaming := crashedSession(t, procowner.Self()) // alive for now: not recovered yet

	// A second session the dead process held open but was not writing to.
	s := openAt(t, path)
	m := session.NewManager(s)
	idle := mustCreate(t, m, session.CreateOptions{ProjectPath: "/idle", Title: "idle one"})
	closed := mustCreate(t, m, session.CreateOptions{ProjectPath: "/closed"})
	closed.Close()
	if err := s.Close(); err != nil { // under the Manager: idle stays open, as after a crash
		t.Fatal(err)
	}
	db := rawDB(t, path)
	exec(t, db, `UPDATE sessions SET owner = ?`, hostname(t)+":999999:123")

	s = openAt(t, path)
	got := map[string]RecoveredSession{}
	for _, r := range s.Recovered() {
		got[r.ID] = r
	}
	if len(got) != 2 {
		t.Fatalf("recovered %+v, want the streaming and the idle session", s.Recovered())
	}
	if r := got[streaming]; r.InterruptedMessages != 1 {
		t.Errorf("streaming session: %+v, want 1 interrupted message", r)
	}
	if r := got[idle.ID()]; r.InterruptedMessages != 0 || r.ProjectPath != "/idle" || r.Title != "idle one" {
		t.Errorf("idle session: %+v", r)
	}
	list, err := s.ListSessions(catalog.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range list {
		want := session.StatusInterrupted
		if info.ID == closed.ID() {
			want = session.StatusActive // closed on purpose before the crash
		}
		if info.Status != want {
			t.Errorf("session %s (%s): status %s, want %s", info.ID, info.ProjectPath, info.Status, want)
		}
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM sessions WHERE is_open = 1`); n != 0 {
		t.Errorf("%d sessions still marked open after recovery", n)
	}

	// Reported once: the next open finds nothing left to recover.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if again := openAt(t, path).Recovered(); len(again) != 0 {
		t.Errorf("recovered again: %+v", again)
	}
}
