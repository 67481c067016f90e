package postgres

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/infocolumns"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// allInfo is the selection of every listing column, for reads of one whole listing.
var allInfo = infocolumns.All

// rowValues is the infocolumns.Decoder of PostgreSQL rows: the server checks each column's
// type, so a value is read by assertion, NULL as the zero value.
type rowValues []any

func (r rowValues) Text(i int, _ string) string         { v, _ := r[i].(string); return v }
func (r rowValues) OptionalText(i int, _ string) string { v, _ := r[i].(string); return v }
func (r rowValues) Integer(i int, _ string) int64       { v, _ := r[i].(int64); return v }

func (r rowValues) OptionalInteger(i int, _ string) *int64 {
	if v, ok := r[i].(int64); ok {
		return &v
	}
	return nil
}

// noneUnreadable is what rowValues could not read: nothing.
func noneUnreadable() []string { return nil }

// scanInfo reads a session's listing from row.
func scanInfo(sel infocolumns.Selection, row []any) session.SessionInfo {
	return sel.Scan(rowValues(row), noneUnreadable)
}

// ListSessions returns sessions newest first: by their last write, then newest created.
func (s *Store) ListSessions(filter catalog.ListFilter) ([]session.SessionInfo, error) {
	list := []session.SessionInfo{}
	err := s.read(func(c conn) error {
		return eachListing(c, filter, func(sel infocolumns.Selection, row []any) error {
			list = append(list, scanInfo(sel, row))
			return nil
		})
	})
	return list, storageError("listing sessions", err)
}

// EachListed calls each with ListSessions's sessions as it reads them (see
// catalog.Listing), one SessionInfo refilled for every row.
func (s *Store) EachListed(filter catalog.ListFilter, each func(info *session.SessionInfo) error) error {
	var info session.SessionInfo
	err := s.read(func(c conn) error {
		return eachListing(c, filter, func(sel infocolumns.Selection, row []any) error {
			sel.ScanInto(rowValues(row), noneUnreadable, &info)
			return each(&info)
		})
	})
	return storageError("listing sessions", err)
}

// FindSessions returns up to limit sessions whose id starts with prefix, in id order.
func (s *Store) FindSessions(prefix string, limit int) ([]session.SessionInfo, error) {
	query := `SELECT ` + allInfo.SQL() + ` FROM sessions WHERE left(id, length($1)) = $1 ORDER BY id COLLATE "C" LIMIT $2`
	return s.listInfo(allInfo, query, []any{prefix, limit}, fmt.Sprintf("finding sessions by id prefix %q", prefix))
}

func (s *Store) listInfo(sel infocolumns.Selection, query string, args []any, what string) ([]session.SessionInfo, error) {
	list := []session.SessionInfo{}
	err := s.read(func(c conn) error {
		return c.query(query, args, func(row []any) error {
			list = append(list, scanInfo(sel, row))
			return nil
		})
	})
	return list, storageError(what, err)
}
