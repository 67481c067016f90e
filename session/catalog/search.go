package catalog

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// Searcher is a store's full-text index over the text of every session's messages.
type Searcher interface {
	// Search returns the messages whose text matches q, best first.
	Search(q SearchQuery) ([]SearchHit, error)
}

// SearchQuery is a full-text search over the text of every session's messages.
type SearchQuery struct {
	Text        string    `json:"text"`
	ProjectPath string    `json:"projectPath"`
	Limit       int       `json:"limit"`
	Highlight   [2]string `json:"highlight"` // put around each match in snippets
}

// DefaultSearchLimit is how many hits a search returns when no limit is given.
const DefaultSearchLimit = 50

// SearchHit is one message that matches, best first.
type SearchHit struct {
	SessionID    string    `json:"sessionId"`
	MessageUUID  string    `json:"messageUuid"`
	Snippet      string    `json:"snippet"`
	Role         string    `json:"role"`
	Timestamp    time.Time `json:"-"`
	SessionTitle string    `json:"sessionTitle"`
	ProjectPath  string    `json:"projectPath"`
}

// MarshalJSON writes the time as envelopes do.
func (h SearchHit) MarshalJSON() ([]byte, error) {
	type plain SearchHit
	return json.Marshal(struct {
		plain
		Timestamp string `json:"timestamp"`
	}{plain(h), jsonenc.FormatTime(h.Timestamp)})
}

// Words are the words of what a person typed: the text split at white space and at U+0000,
// which SQLite would read as the end of the query (it reads it as a C string).
func (q SearchQuery) Words() []string {
	return strings.FieldsFunc(q.Text, func(r rune) bool { return unicode.IsSpace(r) || r == 0 })
}

// CheckText returns ErrInvalidArgument when q has no word to search for: every backend
// refuses such a query before it reads anything.
func (q SearchQuery) CheckText() error {
	if len(q.Words()) == 0 {
		return fmt.Errorf("%w: the search text is empty", session.ErrInvalidArgument)
	}
	return nil
}

// PrefixPhrase is word as an FTS5 phrase whose last token may be the start of a longer
// one, every character of word taken literally.
func PrefixPhrase(word string) string {
	return `"` + strings.ReplaceAll(word, `"`, `""`) + `"*`
}

// Search finds the messages whose text matches q, best first.
func Search(m *session.Manager, q SearchQuery) ([]SearchHit, error) {
	if q.Limit < 0 {
		return nil, fmt.Errorf("%w: limit must not be negative", session.ErrInvalidArgument)
	}
	if q.Limit == 0 {
		q.Limit = DefaultSearchLimit
	}
	if err := q.CheckText(); err != nil {
		return nil, err
	}
	st, err := ready(m)
	if err != nil {
		return nil, err
	}
	return st.Search(q)
}
