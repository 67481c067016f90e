package sqlite

import (
	"database/sql/driver"
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/infocolumns"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/rawdb"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// allInfo is the selection of every listing column, for reads of one whole listing.
var allInfo = infocolumns.All

// scanInfo reads a session's listing from row. A column holding a value of the wrong type
// (the file was damaged or edited by hand) does not fail the listing: the session is listed
// as corrupted, saying which column is bad, so every other session still lists.
func scanInfo(sel infocolumns.Selection, row []driver.Value) session.SessionInfo {
	d := rowDecoder{row: row}
	return sel.Scan(&d, func() []string { return d.bad })
}

// rowDecoder reads the columns of a row, noting the names of those of the wrong type; it is
// the infocolumns.Decoder of SQLite rows.
type rowDecoder struct {
	row []driver.Value
	bad []string
}

func (d *rowDecoder) Text(i int, name string) string {
	switch v := d.row[i].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	d.bad = append(d.bad, name)
	return ""
}

func (d *rowDecoder) OptionalText(i int, name string) string {
	if d.row[i] == nil {
		return ""
	}
	return d.Text(i, name)
}

func (d *rowDecoder) Integer(i int, name string) int64 {
	if v, ok := d.row[i].(int64); ok {
		return v
	}
	d.bad = append(d.bad, name)
	return 0
}

func (d *rowDecoder) OptionalInteger(i int, name string) *int64 {
	if d.row[i] == nil {
		return nil
	}
	v := d.Integer(i, name)
	return &v
}

// ListSessions returns sessions newest first: by their last write, then newest created.
func (s *Store) ListSessions(filter catalog.ListFilter) ([]session.SessionInfo, error) {
	sel, query, args := infocolumns.Listing(filter)
	return s.listInfo(sel, query, args, "listing sessions")
}

// EachListed calls each with ListSessions's sessions as it reads them, through a direct
// connection (see catalog.Listing): one SessionInfo is refilled for every row, its strings
// the row's own memory until the next row is read.
func (s *Store) EachListed(filter catalog.ListFilter, each func(info *session.SessionInfo) error) error {
	sel, query, args := infocolumns.Listing(filter)
	err := s.readDirect(func(c *rawdb.Conn) error {
		d := stmtDecoder{inPlace: true}
		var info session.SessionInfo
		return queryDirect(c, query, args, func(row *rawdb.Stmt) error {
			d.row, d.bad = row, d.bad[:0]
			sel.ScanInto(&d, func() []string { return d.bad }, &info)
			return each(&info)
		})
	})
	return sqlconn.Wrap("listing sessions", err)
}

// FindSessions returns up to limit sessions whose id starts with prefix, in id order,
// reading a range of the id index.
func (s *Store) FindSessions(prefix string, limit int) ([]session.SessionInfo, error) {
	query := `SELECT ` + allInfo.SQL() + ` FROM sessions WHERE id >= ? AND `
	args := []any{prefix}
	if upper, ok := prefixUpperBound(prefix); ok {
		query += `id < ?`
		args = append(args, upper)
	} else {
		query += `substr(id, 1, ?) = ?`
		args = append(args, len(prefix), prefix)
	}
	query += ` ORDER BY id LIMIT ?`
	args = append(args, limit)
	return s.listInfo(allInfo, query, args, fmt.Sprintf("finding sessions by id prefix %q", prefix))
}

// prefixUpperBound returns the least string greater than every string that starts with
// prefix, when its last byte can be incremented.
func prefixUpperBound(prefix string) (string, bool) {
	last := prefix[len(prefix)-1]
	if last >= 0x7f {
		return "", false
	}
	return prefix[:len(prefix)-1] + string(last+1), true
}

func (s *Store) listInfo(sel infocolumns.Selection, query string, args []any, what string) ([]session.SessionInfo, error) {
	list := []session.SessionInfo{}
	err := s.read(func(c *sqlconn.Conn) error {
		return c.Query(query, args, func(row []driver.Value) error {
			list = append(list, scanInfo(sel, row))
			return nil
		})
	})
	return list, sqlconn.Wrap(what, err)
}
