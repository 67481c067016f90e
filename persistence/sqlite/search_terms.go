package sqlite

import (
	"database/sql/driver"
	"strings"

	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// prefixTermsLimit is how many indexed terms the last token of a typed word may expand
// into. A prefix that starts more terms than that (a word of one or two letters) is left
// to FTS5's own prefix query, whose cost is then in the terms it merges anyway.
const prefixTermsLimit = 32

// matchExpression is the FTS5 query of what a person typed, matching what FTS5's prefix
// query of each word (catalog.PrefixPhrase) matches (every word, its last token as the start
// of a term), with each prefix written as the indexed terms it starts, read from search_terms.
// FTS5 seeks a prefix with a greater-or-equal search that, in each segment without the
// prefix, walks every page of the doclist of the term sorted before it: with a word in
// every message there, a search grew with the store (bench/README.md, issue 30 round 8).
// An exact term fails at once in a segment that lacks it. A word with a character outside
// ASCII keeps FTS5's prefix query: only FTS5 knows how it folds it.
func matchExpression(c *sqlconn.Conn, words []string) (string, error) {
	parts := make([]string, len(words))
	for i, w := range words {
		part, err := wordExpression(c, w)
		if err != nil {
			return "", err
		}
		parts[i] = part
	}
	return strings.Join(parts, " AND "), nil
}

// wordExpression is the FTS5 query of one typed word: the phrase of its tokens, the last
// one any indexed term it starts.
func wordExpression(c *sqlconn.Conn, word string) (string, error) {
	tokens, ok := asciiTokens(word)
	if !ok || len(tokens) == 0 {
		return catalog.PrefixPhrase(word), nil
	}
	last := tokens[len(tokens)-1]
	terms, err := termsStarting(c, last, prefixTermsLimit+1)
	if err != nil || len(terms) > prefixTermsLimit {
		return catalog.PrefixPhrase(word), err
	}
	if len(terms) == 0 {
		terms = []string{last} // in no message: an exact term that finds nothing, at once
	}
	head := strings.Join(tokens[:len(tokens)-1], " ")
	phrases := make([]string, len(terms))
	for i, t := range terms {
		phrases[i] = `"` + strings.TrimPrefix(head+" "+strings.ReplaceAll(t, `"`, `""`), " ") + `"`
	}
	if len(phrases) == 1 {
		return phrases[0], nil
	}
	return "(" + strings.Join(phrases, " OR ") + ")", nil
}

// termsStarting returns up to limit indexed terms that start with prefix, in order.
func termsStarting(c *sqlconn.Conn, prefix string, limit int) ([]string, error) {
	// prefix is ASCII letters and digits: the same string with its last byte one higher is
	// the first that no term starting with it reaches.
	end := prefix[:len(prefix)-1] + string(prefix[len(prefix)-1]+1)
	var terms []string
	err := c.Query(`SELECT term FROM search_terms WHERE term >= ?1 AND term < ?2 ORDER BY term LIMIT ?3`,
		[]any{prefix, end, limit}, func(row []driver.Value) error {
			terms = append(terms, string(rowvalue.Bytes(row[0])))
			return nil
		})
	return terms, sqlconn.Wrap("reading the search terms", err)
}

// asciiTokens splits word as FTS5's unicode61 tokenizer splits ASCII text: into runs of
// letters and digits, every other character a separator, folded to lower case. ok is false
// when word holds a character outside ASCII.
func asciiTokens(word string) (tokens []string, ok bool) {
	start := -1
	for i := 0; i <= len(word); i++ {
		if i < len(word) && word[i] >= 0x80 {
			return nil, false
		}
		if i < len(word) && isASCIIAlnum(word[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			tokens = append(tokens, strings.ToLower(word[start:i]))
			start = -1
		}
	}
	return tokens, true
}

// isASCIIAlnum reports whether b is an ASCII letter or digit.
func isASCIIAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
