package sqlite

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// Opening a session just closed does not wait for the writer to commit the close, but does
// wait for a message recorded before it, and the session then continues after that message:
// another connection holds the write lock, so nothing commits until it lets go.
func TestReopenWaitsForMessagesNotTheClose(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	ses, err := m.Create(session.CreateOptions{ProjectPath: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	id := ses.ID()
	if _, err := ses.AppendUserMessage([]byte(`"first"`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	release := holdWriteLock(t, path)

	type result struct {
		s   *session.Session
		err error
	}
	reopen := func() <-chan result {
		opened := make(chan result, 1)
		go func() {
			again, err := m.Open(id)
			opened <- result{again, err}
		}()
		return opened
	}
	take := func(r result) *session.Session {
		t.Helper()
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.s
	}
	ses.Close()
	select {
	case r := <-reopen():
		ses = take(r)
	case <-time.After(2 * time.Second):
		t.Fatal("Open waited for the commit of the close before it")
	}

	if _, err := ses.AppendUserMessage([]byte(`"second"`)); err != nil {
		t.Fatal(err)
	}
	ses.Close()
	opened := reopen()
	select {
	case <-opened:
		t.Fatal("Open returned before a message recorded before the close was committed")
	case <-time.After(200 * time.Millisecond):
	}
	release()
	ses = take(<-opened)
	if _, err := ses.AppendUserMessage([]byte(`"third"`)); err != nil {
		t.Fatal(err)
	}
	ses.Close()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if n, last := queryInt(t, db, `SELECT COUNT(*) FROM messages`), queryInt(t, db, `SELECT MAX(seq) FROM messages`); n != 3 || last != 2 {
		t.Errorf("%d messages, the last seq %d; want 3 and 2 (the reopened session continues after the second)", n, last)
	}
	if open := queryInt(t, db, `SELECT is_open FROM sessions WHERE id = ?`, id); open != 0 {
		t.Errorf("is_open %d after the last close, want 0", open)
	}
}
