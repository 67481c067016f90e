package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// TestOpenAtOnce opens one fresh schema from many goroutines at once, as hosts starting
// together do: the advisory lock lets one migrate and the others find it done.
func TestOpenAtOnce(t *testing.T) {
	url := freshURL(t)
	const hosts = 8
	errs := make([]error, hosts)
	var wg sync.WaitGroup
	for i := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(url)
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("host %d: %v", i, err)
		}
	}
	s := openAt(t, url)
	versions := 0
	if err := s.read(func(c conn) error {
		return c.query(`SELECT count(*) FROM schema_version`, nil, func(row []any) error {
			versions = int(row[0].(int64))
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	if versions != len(migrations) {
		t.Fatalf("schema_version holds %d rows, want %d", versions, len(migrations))
	}
}

// TestCheckpointNeverMovesBackwards commits a lower pubsub id after a higher one, as a
// slow worker does after a fast one: the store keeps the higher.
func TestCheckpointNeverMovesBackwards(t *testing.T) {
	url := freshURL(t)
	m := session.NewManager(openAt(t, url))
	s, err := m.ByKey("acme:general:bot", true, session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{7, 42, 9} {
		if err := s.CommitCheckpoint(id); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	st, err := openAt(t, url).LoadSession(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if st.Info.Checkpoint == nil || *st.Info.Checkpoint != 42 {
		t.Fatalf("checkpoint = %v, want 42", st.Info.Checkpoint)
	}
}

// TestRecoveryFollowsTheOwnerLock leaves a message streaming in one store, cuts that store's
// writer off the server (as a host that died is cut off), and opens the store again: the
// session is recovered as interrupted. A session whose writer is alive is left alone.
func TestRecoveryFollowsTheOwnerLock(t *testing.T) {
	url := freshURL(t)
	dying := openAt(t, url)
	m := session.NewManager(dying)
	s, err := m.Create(session.CreateOptions{Title: "dies mid-reply"})
	if err != nil {
		t.Fatal(err)
	}
	sessiontest.Feed(t, s, sessiontest.Start("msg_1"), sessiontest.Text("half a rep"))
	if err := dying.Sync(); err != nil {
		t.Fatal(err)
	}
	if got := openAt(t, url).Recovered(); len(got) != 0 {
		t.Fatalf("a live writer's session was recovered: %+v", got)
	}
	terminate(t, url, dying.w.ownerID)
	recovered := openAt(t, url).Recovered()
	if len(recovered) != 1 || recovered[0].ID != s.ID() || recovered[0].InterruptedMessages != 1 {
		t.Fatalf("recovered %+v, want session %s with 1 interrupted message", recovered, s.ID())
	}
}

// terminate ends the server process of the connection holding owner's lock.
func terminate(t *testing.T, url string, owner int64) {
	t.Helper()
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	var ended bool
	err = c.QueryRow(context.Background(), `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'
		AND ((classid::bigint << 32) | objid::bigint) = $1 AND objsubid = 1`, owner).Scan(&ended)
	if err != nil || !ended {
		t.Fatalf("terminating the writer: %v", err)
	}
}

// TestWriterReconnects cuts the writer's connection between two messages: the next batch
// connects again and nothing queued is lost.
func TestWriterReconnects(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	m := session.NewManager(store)
	s, err := m.Create(session.CreateOptions{Title: "reconnects"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendUserMessage([]byte(`"before"`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	terminate(t, url, store.w.ownerID)
	if _, err := s.AppendUserMessage([]byte(`"after"`)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for err = s.Flush(); err != nil && time.Now().Before(deadline); err = s.Flush() {
		if !errors.Is(err, session.ErrStoreUnavailable) && !errors.Is(err, session.ErrStorage) {
			t.Fatalf("Flush after the connection was cut: %v", err)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	read, err := session.NewManager(openAt(t, url)).Open(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	got, err := read.Messages(false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "before") || !strings.Contains(string(got), "after") {
		t.Fatalf("messages after the reconnect: %s", got)
	}
}

// TestUnreachableServer opens a store on a port nothing listens on: a clear
// ErrStoreUnavailable, not a hang.
func TestUnreachableServer(t *testing.T) {
	testURL(t)
	_, err := Open("postgres://sessionkeep@127.0.0.1:1/sessionkeep?connect_timeout=2")
	if !errors.Is(err, session.ErrStoreUnavailable) {
		t.Fatalf("Open on a closed port = %v, want ErrStoreUnavailable", err)
	}
}

// TestSearchLikeFTS5 checks what the Node search tests expect of SQLite's FTS5: prefixes,
// every word required, the words of a path ("go" of src/auth.go), tool inputs and results searched, thinking not, markers only when
// asked, each message once, best first.
func TestSearchLikeFTS5(t *testing.T) {
	store := openAt(t, freshURL(t))
	m := session.NewManager(store)
	s, err := m.Create(session.CreateOptions{ProjectPath: "/work/api", Title: "auth"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendUserMessage([]byte(`"Why does the login endpoint return 500?"`)); err != nil {
		t.Fatal(err)
	}
	sessiontest.Feed(t, s, sessiontest.Start("msg_1"), sessiontest.Thinking("secretthought"), sessiontest.Signature("c2ln"),
		sessiontest.Text("The JWT secret is unset in production."),
		sessiontest.ToolUse("toolu_1", "Grep", `{"pattern":"authenticate","path":"src/auth.go:42"}`), sessiontest.Done("tool_use", ""))
	search := func(text string, highlight [2]string) []catalog.SearchHit {
		t.Helper()
		hits, err := catalog.Search(m, catalog.SearchQuery{Text: text, Highlight: highlight})
		if err != nil {
			t.Fatalf("search %q: %v", text, err)
		}
		return hits
	}
	for text, want := range map[string]int{"endpoint": 1, "authentic": 1, "JWT production": 1, "JWT blue": 0,
		"secretthought": 0, "src/auth.go:42": 1, "go": 1, "it's": 0, `"quoted\`: 0} {
		if got := len(search(text, [2]string{})); got != want {
			t.Errorf("search %q: %d hits, want %d", text, got, want)
		}
	}
	if hits := search("JWT", [2]string{"[", "]"}); len(hits) != 1 || hits[0].Snippet != "The [JWT] secret is unset in production." {
		t.Errorf("snippet with markers: %+v", hits)
	}
	if hits := search("JWT", [2]string{}); len(hits) != 1 || hits[0].Snippet != "The JWT secret is unset in production." {
		t.Errorf("snippet without markers: %+v", hits)
	}
	if hits := search("the", [2]string{}); len(hits) != 2 {
		t.Errorf("a word in two messages: %d hits, want each message once", len(hits))
	}
}

// TestOpenRefusesABadURL gives pgx a URL it cannot read: ErrInvalidArgument, no password in
// the message.
func TestOpenRefusesABadURL(t *testing.T) {
	_, err := Open("postgres://u:hunter2@127.0.0.1:notaport/db")
	if !errors.Is(err, session.ErrInvalidArgument) || strings.Contains(fmt.Sprint(err), "hunter2") {
		t.Fatalf("Open = %v", err)
	}
}

// TestScanStops ends scans early with session.StopScan: no error, no more calls.
func TestScanStops(t *testing.T) {
	store := openAt(t, freshURL(t))
	m := session.NewManager(store)
	s, err := m.Create(session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := s.AppendUserMessage(fmt.Appendf(nil, `"message %d"`, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	for name, scan := range map[string]func(func(*session.StoredMessage) error) error{
		"ScanMessagesFrom": func(fn func(*session.StoredMessage) error) error { return store.ScanMessagesFrom(s.ID(), 0, fn) },
		"ScanEncoded":      func(fn func(*session.StoredMessage) error) error { return store.ScanEncoded(s.ID(), 0, fn) },
	} {
		calls := 0
		if err := scan(func(*session.StoredMessage) error { calls++; return session.StopScan }); err != nil || calls != 1 {
			t.Errorf("%s stopped: err %v after %d calls, want nil after 1", name, err, calls)
		}
	}
	calls := 0
	if err := store.ScanMessagesBackward(s.ID(), 0, func(*session.StoredMessage) bool { calls++; return false }); err != nil || calls != 1 {
		t.Errorf("ScanMessagesBackward stopped: err %v after %d calls, want nil after 1", err, calls)
	}
}

// TestNULInAPrompt records a first prompt holding U+0000, which becomes the title:
// PostgreSQL text cannot hold it, so the title gets U+FFFD and the message is kept exactly.
func TestNULInAPrompt(t *testing.T) {
	url := freshURL(t)
	m := session.NewManager(openAt(t, url))
	s, err := m.Create(session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendUserMessage([]byte(`"before\u0000after"`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	again, err := session.NewManager(openAt(t, url)).Open(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	got, err := again.Messages(false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `before\u0000after`) {
		t.Fatalf("messages: %s", got)
	}
	st, err := openAt(t, url).LoadSession(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if st.Info.Title != "before\uFFFDafter" {
		t.Fatalf("title %q", st.Info.Title)
	}
}

// TestCloseAfterMessagesInOneBatch records messages and closes the session before the
// writer commits, so both are in one batch: the close wins, as on SQLite, and the next open
// recovers nothing.
func TestCloseAfterMessagesInOneBatch(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	m := session.NewManager(store)
	s, err := m.Create(session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendUserMessage([]byte(`"then closed"`)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	next := openAt(t, url)
	if got := next.Recovered(); len(got) != 0 {
		t.Fatalf("a session closed cleanly was recovered: %+v", got)
	}
	st, err := next.LoadSession(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if st.Info.Status != session.StatusActive {
		t.Fatalf("status %q, want active", st.Info.Status)
	}
}
