package infocolumns

import (
	"math"
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// Listing returns the columns, query and arguments of the listing filter selects, newest
// first: by their last write, then newest created. The query's ? placeholders take the
// arguments in order; it is the same statement on both backends, so each reads it from the
// same index (on SQLite, without a project or archived sessions, from sessions_listing
// alone when the fields it holds are all it wants).
func Listing(filter catalog.ListFilter) (Selection, string, []any) {
	var where []string
	var args []any
	if filter.ProjectPath != "" {
		where = append(where, `project_path = ?`)
		args = append(args, filter.ProjectPath)
	}
	if !filter.IncludeArchived {
		where = append(where, `archived_at = 0`)
	}
	want := filter.Want
	if want == 0 {
		want = session.AllInfoFields
	}
	sel := Select(want)
	query := `SELECT ` + sel.SQL() + ` FROM sessions`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, ` AND `)
	}
	query += ` ORDER BY updated_at DESC, sid DESC`
	if filter.Limit > 0 || filter.Offset > 0 {
		limit := int64(filter.Limit)
		if limit == 0 {
			limit = math.MaxInt64 // an offset needs a limit on SQLite, which has no LIMIT ALL
		}
		query += ` LIMIT ?`
		args = append(args, limit)
	}
	if filter.Offset > 0 {
		query += ` OFFSET ?`
		args = append(args, filter.Offset)
	}
	return sel, query, args
}
