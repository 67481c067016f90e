package sqlite

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func ids(list []session.SessionInfo) []string {
	out := make([]string, len(list))
	for i, info := range list {
		out[i] = info.ID
	}
	return out
}

func TestListSessionsNewestFirstByProjectWithLimit(t *testing.T) {
	s, _ := openTemp(t)
	m := session.NewManager(s)
	a := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p1"})
	time.Sleep(3 * time.Millisecond)
	b := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p2"})
	time.Sleep(3 * time.Millisecond)
	c := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p1", Model: "claude-x", ContextWindow: 200000})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Millisecond)
	// Writing to a makes it the most recently updated.
	if _, err := a.AppendUserMessage([]byte(`"hello"`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}

	list, err := s.ListSessions(catalog.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(list), []string{a.ID(), c.ID(), b.ID()}; !equal(got, want) {
		t.Fatalf("ListSessions = %v, want %v (newest update first)", got, want)
	}
	if list[0].MessageCount != 1 || list[0].Title != "hello" || !list[0].UpdatedAt.After(list[0].CreatedAt) {
		t.Errorf("a's listing = %+v", list[0])
	}
	if list[1].Model != "claude-x" || list[1].ContextWindow != 200000 || list[1].Status != session.StatusActive {
		t.Errorf("c's listing = %+v", list[1])
	}
	p1, _ := s.ListSessions(catalog.ListFilter{ProjectPath: "/p1"})
	if got, want := ids(p1), []string{a.ID(), c.ID()}; !equal(got, want) {
		t.Errorf("project /p1 = %v, want %v", got, want)
	}
	top, _ := s.ListSessions(catalog.ListFilter{Limit: 2})
	if got, want := ids(top), []string{a.ID(), c.ID()}; !equal(got, want) {
		t.Errorf("limit 2 = %v, want %v", got, want)
	}
	none, _ := s.ListSessions(catalog.ListFilter{ProjectPath: "/nowhere"})
	if none == nil || len(none) != 0 {
		t.Errorf("unknown project = %#v, want an empty, non-nil list", none)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestUnknownSessionIsNotFound(t *testing.T) {
	s, _ := openTemp(t)
	const id = "01900000-0000-7000-8000-000000000000"
	if _, err := s.LoadSession(id); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("LoadSession: err = %v, want ErrSessionNotFound", err)
	}
	if err := s.ScanMessages(id, func(*session.StoredMessage) error { return nil }); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("ScanMessages: err = %v, want ErrSessionNotFound", err)
	}
	if _, err := s.Turns(id); !errors.Is(err, session.ErrSessionNotFound) {
		t.Errorf("Turns: err = %v, want ErrSessionNotFound", err)
	}
	if _, found, err := s.ToolUseSeq(id, "t1"); found || err != nil {
		t.Errorf("ToolUseSeq = %v, %v; want false, nil", found, err)
	}
}

func TestLoadSessionReturnsWhereToContinue(t *testing.T) {
	s, _ := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p", Provider: "openai"})
	sess.AppendUserMessage([]byte(`"one"`))
	mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkText, Text: "reply"},
		stream.Chunk{Kind: stream.ChunkDone, Usage: []byte(`{"input_tokens":4,"output_tokens":2}`)})
	last, _ := sess.AppendUserMessage([]byte(`"two"`))
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	st, err := s.LoadSession(sess.ID())
	if err != nil {
		t.Fatal(err)
	}
	if st.NextSeq != 3 || st.LastTurn != 1 || st.Info.Provider != "openai" || st.Info.MessageCount != 3 {
		t.Errorf("LoadSession = %+v", st)
	}
	msgs := scan(t, s, sess.ID())
	if st.LastUUID != msgs[2].UUID || len(last) == 0 {
		t.Errorf("LastUUID = %s, want the last message's %s", st.LastUUID, msgs[2].UUID)
	}
	if st.Tracker.InputTokens != 4 || st.Tracker.OutputTokens != 2 || st.Tracker.ContextTokens != 4 {
		t.Errorf("tracker = %+v", st.Tracker)
	}
}

func TestFlushWritesIntoTheDatabaseFile(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{})
	sess.AppendUserMessage([]byte(`"durable?"`))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	// Copy the main file alone, without its WAL: only what was checkpointed into it is there.
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	copyFile(t, path, copyPath)
	c := openAt(t, copyPath)
	if msgs := scan(t, c, sess.ID()); len(msgs) != 1 || string(msgs[0].Blocks[0]) != `{"type":"text","text":"durable?"}` {
		t.Fatalf("copy of the flushed file holds %+v", msgs)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
}

func TestCloseCommitsWhatIsQueued(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{})
	sess.AppendUserMessage([]byte(`"last words"`))
	// No Sync or Flush: Close alone must commit the queue.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openAt(t, path)
	if msgs := scan(t, s2, sess.ID()); len(msgs) != 1 || msgs[0].Status != session.MessageComplete {
		t.Fatalf("after Close and reopen: %+v", msgs)
	}
}

func TestCallsAfterCloseFail(t *testing.T) {
	s, _ := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{})
	id := sess.ID()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	checks := map[string]error{}
	_, checks["LoadSession"] = s.LoadSession(id)
	_, checks["ListSessions"] = s.ListSessions(catalog.ListFilter{})
	checks["ScanMessages"] = s.ScanMessages(id, func(*session.StoredMessage) error { return nil })
	_, checks["Turns"] = s.Turns(id)
	_, _, checks["ToolUseSeq"] = s.ToolUseSeq(id, "t")
	s.Apply(session.SetTitle{SessionID: id, Title: "too late"})
	checks["Sync after Apply"] = s.Sync()
	checks["Flush after Apply"] = s.Flush()
	for name, err := range checks {
		if !errors.Is(err, session.ErrStoreClosed) {
			t.Errorf("%s after Close: err = %v, want ErrStoreClosed", name, err)
		}
	}
}

func TestSyncAndFlushAfterCloseFail(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Nothing is queued, but the store is closed: ErrStoreClosed says "closed before the call".
	if err := s.Sync(); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Sync after Close: err = %v, want ErrStoreClosed", err)
	}
	if err := s.Flush(); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Flush after Close: err = %v, want ErrStoreClosed", err)
	}
}
