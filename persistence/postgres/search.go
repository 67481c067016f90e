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

// Search returns the messages whose text matches q, best first (ts_rank over each
// message's tsvector, the words of all its blocks). Every word of the text
// must occur as a word or the start of one, as with the SQLite backend's FTS5 query. It
// first indexes every message waiting for search, whoever wrote it, so that it finds every
// message committed before the call. A role that may only read (or a standby) cannot: it
// searches what hosts that write have indexed. Snippets are cut from the text of the hits'
// bodies (cutSnippets): no copy of a message's text is kept beside its body.
func (s *Store) Search(q catalog.SearchQuery) ([]catalog.SearchHit, error) {
	if err := q.CheckText(); err != nil {
		return nil, err
	}
	if err := s.IndexForSearch(); err != nil && !errors.Is(err, session.ErrReadOnly) {
		return nil, err
	}
	query, args := searchStatement(q)
	hits := []catalog.SearchHit{}
	var texts []*string
	err := s.read(func(c conn) error {
		err := c.queryBatch(searchSerially, batchQuery{sql: query, args: args, fn: func(row []any) error {
			text, err := storedSearchText(row[9].(int64), row[6], row[7], row[8])
			if err != nil {
				return err
			}
			texts = append(texts, textPtr(text))
			hits = append(hits, catalog.SearchHit{
				SessionID: row[0].(string), MessageUUID: row[1].(string), Role: row[2].(string),
				Timestamp: time.UnixMilli(row[3].(int64)).UTC(), SessionTitle: row[4].(string), ProjectPath: row[5].(string),
			})
			return nil
		}})
		if err != nil || len(hits) == 0 {
			return err
		}
		return cutSnippets(c, args[0], texts, q.Highlight, hits)
	})
	return hits, storageError("searching for "+q.Text, err)
}

// searchSerially is the setting, for the rest of its transaction (the search statement's
// batch), that keeps the planner from starting parallel workers. It guesses thousands of
// hits for any prefix, so as the messages table grew it planned the search with two
// workers, whose start cost 40-70 ms of a search that found 10 messages in 1 ms
// (bench/README.md, issue 30 round 8, at 25,000 sessions).
var searchSerially = forTransaction(setting{"max_parallel_workers_per_gather", "0"})

// searchStatement is the statement of Search for q and its arguments: the matching
// messages, best first. The hits are ranked and cut to the limit before their sessions are
// read, each by its key: joined first, the planner (which cannot know how few messages a
// prefix matches, and guesses thousands) hashed every session of the store, a scan that
// grew with it (bench/README.md, issue 30 round 8). A project is checked hit by hit for the
// same reason.
func searchStatement(q catalog.SearchQuery) (string, []any) {
	// The vectors are stripped of positions (search_index.go), which a phrase cannot match: the
	// parts of a word the parser splits ("src/auth.go:42") are required each, in any order.
	hits := `WITH q AS (SELECT regexp_replace(to_tsquery('simple', $1)::text, ' <[0-9]*-?> ', ' & ', 'g')::tsquery AS tsq)
		SELECT m.sid, m.seq, m.uuid, m.role, m.created_at, m.body, m.layout, m.search_text,
			ts_rank(m.search, q.tsq) AS rank
		FROM q, messages m
		WHERE m.search @@ q.tsq`
	args := []any{tsQuery(q.Text)}
	if q.ProjectPath != "" {
		hits += ` AND (SELECT p.project_path FROM sessions p WHERE p.sid = m.sid) = $2`
		args = append(args, q.ProjectPath)
	}
	hits += ` ORDER BY rank DESC, m.sid, m.seq`
	if q.Limit > 0 {
		hits += ` LIMIT ` + strconv.Itoa(q.Limit)
	}
	query := `SELECT s.id, h.uuid, h.role, h.created_at, s.title, s.project_path, h.body, h.layout, h.search_text, h.seq
		FROM (` + hits + `) h
		CROSS JOIN LATERAL (SELECT id, title, project_path FROM sessions WHERE sid = h.sid) s
		ORDER BY h.rank DESC, h.sid, h.seq`
	return query, args
}

// cutSnippets sets the snippet of each hit from its message's search text (texts, in the
// hits' order): ts_headline over the block that matches best, in one statement for all.
func cutSnippets(c conn, tsq any, texts []*string, highlight [2]string, hits []catalog.SearchHit) error {
	marks := strings.NewReplacer(markStart, highlight[0], markStop, highlight[1])
	return c.query(`WITH q AS (SELECT to_tsquery('simple', $1) AS tsq)
		SELECT h.i, (SELECT ts_headline('simple', p.text, q.tsq,
				'StartSel=`+markStart+`, StopSel=`+markStop+`, MaxWords=16, MinWords=8, HighlightAll=false')
			FROM unnest(string_to_array(h.text, E'`+blockTextSeparator+`')) WITH ORDINALITY AS p(text, idx)
			ORDER BY ts_rank(`+textVector("p.text")+`, q.tsq) DESC, p.idx LIMIT 1)
		FROM q, unnest($2::text[]) WITH ORDINALITY AS h(text, i)`, []any{tsq, texts}, func(row []any) error {
		if snippet, ok := row[1].(string); ok {
			hits[row[0].(int64)-1].Snippet = marks.Replace(snippet)
		}
		return nil
	})
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
