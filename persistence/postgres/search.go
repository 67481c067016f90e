package postgres

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// Snippet markers: ts_headline is given these and they are replaced by the query's
// highlight afterwards, since an empty StartSel would not reach ts_headline as empty.
const (
	markStart = "\x01"
	markStop  = "\x02"
)

// Search returns the messages whose text matches q, best first (ts_rank over the blocks'
// tsvectors, each message at its best block), each message once. Every word of the text
// must occur as a word or the start of one, as with the SQLite backend's FTS5 query. It
// first indexes every block waiting for search, whoever wrote it, so that it finds every
// block committed before the call. A role that may only read (or a standby) cannot: it
// searches what hosts that write have indexed.
func (s *Store) Search(q catalog.SearchQuery) ([]catalog.SearchHit, error) {
	if _, err := q.MatchExpression(); err != nil {
		return nil, err
	}
	if err := s.IndexForSearch(); err != nil && !errors.Is(err, session.ErrReadOnly) {
		return nil, err
	}
	query := `WITH q AS (SELECT to_tsquery('simple', $1) AS tsq),
		best AS (
			SELECT DISTINCT ON (b.sid, b.seq) b.sid, b.seq, b.search_text, ts_rank(b.search, q.tsq) AS rank
			FROM blocks b, q WHERE b.search @@ q.tsq AND NOT b.partial
			ORDER BY b.sid, b.seq, rank DESC, b.idx)
		SELECT s.id, m.uuid, ts_headline('simple', best.search_text, q.tsq,
				'StartSel=` + markStart + `, StopSel=` + markStop + `, MaxWords=16, MinWords=8, HighlightAll=false'),
			m.role, m.created_at, s.title, s.project_path
		FROM best, q, messages m, sessions s
		WHERE m.sid = best.sid AND m.seq = best.seq AND s.sid = best.sid`
	args := []any{tsQuery(q.Text)}
	if q.ProjectPath != "" {
		query += ` AND s.project_path = $2`
		args = append(args, q.ProjectPath)
	}
	query += ` ORDER BY best.rank DESC, best.sid, best.seq`
	if q.Limit > 0 {
		query += ` LIMIT ` + strconv.Itoa(q.Limit)
	}
	marks := strings.NewReplacer(markStart, q.Highlight[0], markStop, q.Highlight[1])
	hits := []catalog.SearchHit{}
	err := s.read(func(c conn) error {
		return c.query(query, args, func(row []any) error {
			hits = append(hits, catalog.SearchHit{
				SessionID: row[0].(string), MessageUUID: row[1].(string), Snippet: marks.Replace(row[2].(string)),
				Role: row[3].(string), Timestamp: time.UnixMilli(row[4].(int64)).UTC(), SessionTitle: row[5].(string),
				ProjectPath: row[6].(string),
			})
			return nil
		})
	})
	return hits, storageError("searching for "+q.Text, err)
}

// tsQuery turns what a person typed into a to_tsquery expression: each word quoted (so
// that nothing in it is read as syntax), matched as a prefix, all words required. The
// parser splits a quoted word as it split the indexed text, so "src/auth.go:42" matches
// where it was written.
func tsQuery(text string) string {
	words := strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == 0 })
	terms := make([]string, len(words))
	for i, w := range words {
		w = strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(w)
		terms[i] = `'` + w + `':*`
	}
	return strings.Join(terms, " & ")
}
