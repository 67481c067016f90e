package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestPricesLookupByLongestPrefix(t *testing.T) {
	read := 0.3
	p := Prices{
		"claude":            {Input: 1, Output: 1},
		"claude-sonnet-4-5": {Input: 3, Output: 15, CacheRead: &read},
		"*":                 {Input: 9, Output: 9},
	}
	for model, want := range map[string]float64{
		"claude-sonnet-4-5-20250929": 3,
		"claude-sonnet-4-5":          3,
		"claude-haiku-4-5":           1,
		"gpt-5":                      9,
	} {
		if got, ok := p.Lookup(model); !ok || got.Input != want {
			t.Errorf("Lookup(%q) = %+v, %v; want input %v", model, got, ok, want)
		}
	}
	cost, _ := p.Cost("claude-sonnet-4-5", session.Usage{InputTokens: 1e6, OutputTokens: 1e6, CacheReadInputTokens: 1e6, CacheCreationInputTokens: 1e6})
	if want := 3 + 15 + 0.3 + 3.0; cost != want { // cache writes at the input rate when not given
		t.Errorf("cost %v, want %v", cost, want)
	}
	if _, ok := (Prices{"claude": {}}).Cost("gpt-5", session.Usage{}); ok {
		t.Error("a model without a price was priced")
	}
	if err := (Prices{"x": {Input: -1}}).Validate(); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("negative rate: %v", err)
	}
}

func TestATypedWordIsAPrefixPhraseTakenLiterally(t *testing.T) {
	q := SearchQuery{Text: `  say "hi"  NOT a*b `}
	var phrases []string
	for _, w := range q.Words() {
		phrases = append(phrases, PrefixPhrase(w))
	}
	if got, want := strings.Join(phrases, " "), `"say"* """hi"""* "NOT"* "a*b"*`; got != want {
		t.Errorf("the phrases = %q; want %q", got, want)
	}
	if err := (SearchQuery{Text: " \t\n"}).CheckText(); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("blank text: %v", err)
	}
	// Found by the API fuzz (test/106): SQLite ended the query at a NUL, "unterminated string".
	if got := (SearchQuery{Text: "a\x00b"}).Words(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("the words of a NUL b = %q", got)
	}
	if err := (SearchQuery{Text: "\x00"}).CheckText(); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("a NUL alone: %v", err)
	}
}
