package redact

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
)

// Options choose what a store redacts (openStore's redact option): the built-in
// secrets, and the caller's patterns, each a regular expression (RE2 syntax) or, with
// Literal, text to find as it is.
type Options struct {
	Builtin  bool      `json:"builtin"`
	Patterns []Pattern `json:"patterns"`
}

// Pattern is one caller pattern.
type Pattern struct {
	Source  string `json:"source"`
	Flags   string `json:"flags"`   // a JavaScript RegExp's: i, m and s apply, g and u change nothing
	Literal bool   `json:"literal"` // Source is text, not a regular expression
}

// Redactor replaces secrets in tool inputs and outputs before they are stored: each match
// becomes [REDACTED:kind]. It is safe for concurrent use; a Manager takes it as its
// session.Redactor.
type Redactor struct {
	patterns []secretPattern
}

var _ session.Redactor = (*Redactor)(nil)

// customKind is the kind of the caller's patterns.
const customKind = "custom"

// New compiles the options, or returns nil when they ask for nothing. A pattern
// that is not valid RE2 is session.ErrInvalidArgument.
func New(opts Options) (*Redactor, error) {
	r := &Redactor{}
	for i, p := range opts.Patterns {
		re, err := p.compile()
		if err != nil {
			return nil, fmt.Errorf("%w: redact.patterns[%d]: %v (patterns are RE2 regular expressions: no lookaround or backreferences)", session.ErrInvalidArgument, i, err)
		}
		r.patterns = append(r.patterns, secretPattern{customKind, re})
	}
	if opts.Builtin {
		r.patterns = append(r.patterns, builtinSecrets...)
	}
	if len(r.patterns) == 0 {
		return nil, nil
	}
	return r, nil
}

func (p Pattern) compile() (*regexp.Regexp, error) {
	if p.Literal {
		if p.Source == "" {
			return nil, fmt.Errorf("an empty string matches everywhere")
		}
		return regexp.Compile(regexp.QuoteMeta(p.Source))
	}
	var flags string
	for _, f := range p.Flags {
		if strings.ContainsRune("ims", f) && !strings.ContainsRune(flags, f) {
			flags += string(f)
		}
	}
	source := p.Source
	if flags != "" {
		source = "(?" + flags + ")" + source
	}
	re, err := regexp.Compile(source)
	// A pattern that matches the empty string would put a marker between every two
	// characters of every tool string, whatever its flags.
	if err == nil && re.MatchString("") {
		return nil, fmt.Errorf("%q matches the empty string", p.Source)
	}
	return re, err
}

// Block returns a block with the secrets in its string values replaced, and how many were,
// when it is a tool block; any other block is returned as it is. Keys and the bytes around
// a changed string are kept as they were.
func (r *Redactor) Block(block []byte) ([]byte, int) {
	var head struct {
		Type string `json:"type"`
	}
	if r == nil || json.Unmarshal(block, &head) != nil || !session.IsToolBlock(head.Type) {
		return block, 0
	}
	return r.JSON(block)
}

// JSON returns the JSON value v with the secrets in its string values replaced, and how
// many were; v itself when there were none.
func (r *Redactor) JSON(v []byte) ([]byte, int) {
	if r == nil {
		return v, 0
	}
	var out []byte
	total, done := 0, 0
	for _, s := range jsonStrings(v) {
		var text string
		if json.Unmarshal(v[s.start:s.end], &text) != nil {
			continue
		}
		redacted, n := r.text(text)
		if n == 0 {
			continue
		}
		encoded, err := json.MarshalNoEscape(redacted)
		if err != nil {
			continue
		}
		out = append(append(out, v[done:s.start]...), encoded...)
		done, total = s.end, total+n
	}
	if total == 0 {
		return v, 0
	}
	return append(out, v[done:]...), total
}

// text replaces the secrets in s.
func (r *Redactor) text(s string) (string, int) {
	n := 0
	for _, p := range r.patterns {
		group := p.re.SubexpIndex("secret")
		s = p.re.ReplaceAllStringFunc(s, func(match string) string {
			mark := "[REDACTED:" + p.kind + "]"
			if group < 0 {
				n++
				return mark
			}
			sub := p.re.FindStringSubmatchIndex(match)
			if sub == nil || sub[2*group] < 0 || strings.HasPrefix(match[sub[2*group]:], "[REDACTED:") {
				return match
			}
			n++
			return match[:sub[2*group]] + mark + match[sub[2*group+1]:]
		})
	}
	return s, n
}

// span is the bytes of one JSON string literal, quotes included.
type span struct{ start, end int }

// jsonStrings returns the string values of the JSON text v (not its object keys), in
// order. v is valid JSON: every block and record is checked before it gets here.
func jsonStrings(v []byte) []span {
	var spans []span
	for i := 0; i < len(v); i++ {
		if v[i] != '"' {
			continue
		}
		start := i
		for i++; i < len(v) && v[i] != '"'; i++ {
			if v[i] == '\\' {
				i++
			}
		}
		end := i + 1
		rest := bytes.TrimLeft(v[min(end, len(v)):], " \t\r\n")
		if len(rest) == 0 || rest[0] != ':' {
			spans = append(spans, span{start, min(end, len(v))})
		}
	}
	return spans
}
