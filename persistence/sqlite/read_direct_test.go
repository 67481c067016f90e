package sqlite

import (
	"database/sql/driver"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/rawdb"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// A direct connection reads every row of every table as the driver's connection does:
// INTEGER, FLOAT, TEXT, BLOB, an empty BLOB and NULL, damaged columns included, so the
// reads that moved to it (the listing, ScanEncoded, and the scanFrom and lookupSID they
// share with the driver's reads) see the values they saw before.
func TestDirectRowsAreTheDriversRows(t *testing.T) {
	s, path, _, a, b := twoSessions(t)
	db := rawDB(t, path)
	exec(t, db, `UPDATE sessions SET message_count = 'many', title = X'7469746C65', project_path = X'', updated_at = 1.5 WHERE id = ?`, a)
	exec(t, db, `UPDATE sessions SET session_key = NULL, checkpoint = 7 WHERE id = ?`, b)
	c, err := openConn(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, query := range []string{
		`SELECT * FROM sessions ORDER BY sid`,
		`SELECT * FROM messages ORDER BY sid, seq`,
		`SELECT m.*, b.* FROM messages m LEFT JOIN blocks b ON b.sid = m.sid AND b.seq = m.seq ORDER BY m.sid, m.seq, b.idx`,
	} {
		want := rowsOf(t, c, query)
		var got [][]driver.Value
		err := s.readDirect(func(dc *rawdb.Conn) error {
			got = rowsOf(t, directValues{dc}, query)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n direct %#v\n driver %#v", query, got, want)
		}
	}
	// The listing decodes the damaged row as the driver's rows did: listed as corrupted.
	got := listedObjects(t, session.NewManager(s), catalog.ListFilter{}, wholeListing)
	infos, _ := s.ListSessions(catalog.ListFilter{})
	want := []byte{'['}
	for i := range infos {
		if i > 0 {
			want = append(want, ',')
		}
		want = session.AppendInfo(want, &infos[i], session.AllInfoFields)
	}
	if want = append(want, ']'); got != string(want) {
		t.Errorf("listing:\n direct %s\n driver %s", got, want)
	}
	if !strings.Contains(got, "unreadable columns: updated_at, message_count") {
		t.Errorf("the damaged session is not listed as corrupted: %s", got)
	}
}

// rowsOf returns the rows of query, copied.
func rowsOf(t *testing.T, q rowQuerier, query string) [][]driver.Value {
	t.Helper()
	var rows [][]driver.Value
	err := q.Query(query, nil, func(row []driver.Value) error {
		rows = append(rows, slicesClone(row))
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return rows
}

func slicesClone(row []driver.Value) []driver.Value {
	out := make([]driver.Value, len(row))
	for i, v := range row {
		if b, ok := v.([]byte); ok && b != nil {
			v = append([]byte{}, b...)
		}
		out[i] = v
	}
	return out
}

// Close closes the direct read connections: no descriptor of the database file is left
// open by the store.
func TestCloseClosesTheDirectReaders(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc to count open files")
	}
	s, path, m, a, _ := twoSessions(t)
	if err := catalog.EncodeListValues(m, catalog.ListFilter{}, wholeListing, nil, discardPart); err != nil {
		t.Fatal(err)
	}
	if err := s.ScanEncoded(a, 0, func(*session.StoredMessage) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if n := openFilesOf(t, path); n == 0 {
		t.Fatal("no open descriptor of the store while it is open: the count cannot tell")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := openFilesOf(t, path); n != 0 {
		t.Errorf("%d descriptors of %s open after Close", n, path)
	}
	if err := s.EachListed(catalog.ListFilter{}, func(*session.SessionInfo) error { return nil }); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("listing a closed store: %v, want ErrStoreClosed", err)
	}
}

// A store whose reads all went through direct connections still leaves no write-ahead log
// at Close: the last connection to close folds the log into the file, and a read-only
// direct connection cannot, so the writer's closes last.
func TestCloseAfterDirectReadsLeavesNoLog(t *testing.T) {
	s, path, _, a, _ := twoSessions(t)
	if _, err := s.Branched(a); err != nil {
		t.Fatal(err)
	}
	if err := s.ScanEncoded(a, 0, func(*session.StoredMessage) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s-wal after Close: %v, want none", path, err)
	}
}

// openFilesOf counts this process's descriptors open on path or its WAL and shared memory.
func openFilesOf(t *testing.T, path string) int {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		target, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if strings.HasPrefix(target, path) {
			n++
		}
	}
	return n
}

// A direct read's SQLite errors mean what the driver's mean: a file that is not a database
// is ErrCorrupt, a lock held past the busy timeout ErrBusy.
func TestDirectReadErrorsKeepTheirMeaning(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "not-a-db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 300)), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := rawdb.Open(garbage, sqlconn.BusyTimeoutMS)
	if err == nil {
		defer c.Close()
		err = queryDirect(c, `SELECT id FROM sessions`, nil, func(*rawdb.Stmt) error { return nil })
	}
	if err = sqlconn.Wrap("listing", err); !errors.Is(err, session.ErrCorrupt) {
		t.Errorf("reading a file that is not a database: %v, want ErrCorrupt", err)
	}

	s, path, _, _, _ := twoSessions(t)
	s.Close() // the store's own connections would keep the exclusive lock from being taken
	holder, err := openConn(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	for _, q := range []string{`PRAGMA locking_mode = EXCLUSIVE`, `BEGIN EXCLUSIVE`, `UPDATE sessions SET title = 'held'`} {
		if err := holder.Query(q, nil, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	c, err = rawdb.Open(path, sqlconn.BusyTimeoutMS)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	err = queryDirect(c, `SELECT id FROM sessions`, nil, func(*rawdb.Stmt) error { return nil })
	if err = sqlconn.Wrap("listing", err); !errors.Is(err, session.ErrBusy) {
		t.Errorf("reading while another connection holds the file exclusively: %v, want ErrBusy", err)
	}
	if waited := time.Since(start); waited < time.Duration(sqlconn.BusyTimeoutMS)*time.Millisecond {
		t.Errorf("the read gave up after %v, before the busy timeout", waited)
	}
}

// Direct reads from many goroutines at once, while messages are written, each get a
// connection of their own (they are opened SQLITE_OPEN_NOMUTEX) and read whole rows: run
// under -race, as make test does.
func TestDirectReadsFromManyGoroutines(t *testing.T) {
	s, _ := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{Title: "busy"})
	for i := range 50 {
		if _, err := sess.AppendUserMessage([]byte(`"first ` + strings.Repeat("x", i*100) + `"`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 8)
	for g := range 8 {
		go func() {
			var err error
			for i := 0; i < 40 && err == nil; i++ {
				if g%2 == 0 {
					var list []byte
					err = catalog.EncodeListValues(m, catalog.ListFilter{}, wholeListing, nil, func(part []byte) ([]byte, error) {
						list = append(list, part...)
						return nil, nil
					})
					if err == nil && !strings.Contains(string(list), `"busy"`) {
						err = errors.New("listing without the session: " + string(list))
					}
					continue
				}
				n := 0
				err = s.ScanEncoded(sess.ID(), 0, func(msg *session.StoredMessage) error {
					if msg.Encoded == nil || !strings.Contains(string(msg.Encoded[0]), `"first `) {
						return errors.New("a message without its body")
					}
					n++
					return nil
				})
				if err == nil && n < 50 {
					err = errors.New("fewer messages than were flushed")
				}
			}
			done <- err
		}()
	}
	for i := range 20 {
		if _, err := sess.AppendUserMessage([]byte(`"first then ` + strings.Repeat("y", i) + `"`)); err != nil {
			t.Fatal(err)
		}
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
