package session

import (
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// InfoFields is a set of SessionInfo's JSON fields: what a listing reads and writes. A
// picker over thousands of sessions that shows a title and a date asks for those alone,
// and neither SQLite nor JSON.parse then pays for the rest.
type InfoFields uint32

// The fields of SessionInfo, in the order they are written.
const (
	InfoID InfoFields = 1 << iota
	InfoProjectPath
	InfoTitle
	InfoProvider
	InfoModel
	InfoContextWindow
	InfoCreatedAt
	InfoUpdatedAt
	InfoLastMessageAt
	InfoLastAccessedAt
	InfoArchivedAt
	InfoMessageCount
	InfoToolCount
	InfoTokens
	InfoStatus
	InfoCorruption
	InfoKey
	InfoCheckpoint
	InfoSDKSession
	InfoForkedFrom
	infoFieldCount = iota
)

// AllInfoFields is every field: the listing when no fields are named.
const AllInfoFields InfoFields = 1<<infoFieldCount - 1

// infoFieldNames are the JSON names of the fields, by bit.
var infoFieldNames = [infoFieldCount]string{"id", "projectPath", "title", "provider", "model", "contextWindow",
	"createdAt", "updatedAt", "lastMessageAt", "lastAccessedAt", "archivedAt", "messageCount", "toolCount",
	"tokens", "status", "corruption", "key", "checkpoint", "sdkSessionId", "forkedFrom"}

// ParseInfoFields returns the set of fields named; none named is every field.
func ParseInfoFields(names []string) (InfoFields, error) {
	if len(names) == 0 {
		return AllInfoFields, nil
	}
	var set InfoFields
next:
	for _, name := range names {
		for bit, known := range infoFieldNames {
			if name == known {
				set |= 1 << bit
				continue next
			}
		}
		return 0, fmt.Errorf("%w: fields: no session field %q (fields are %v)", ErrInvalidArgument, name, infoFieldNames)
	}
	return set, nil
}

// MarshalJSON writes every field (see AppendInfo).
func (i SessionInfo) MarshalJSON() ([]byte, error) {
	return AppendInfo(nil, &i, AllInfoFields), nil
}

// AppendInfo appends the fields f of i to buf as a JSON object of ASCII only (see
// AppendASCII). Times are ISO 8601 UTC with milliseconds, as envelopes write them; a time
// that never happened (no message yet, never archived) and empty optional values are left
// out.
func AppendInfo(buf []byte, i *SessionInfo, f InfoFields) []byte {
	w := infoWriter{buf: append(buf, '{'), fields: f}
	w.str(InfoID, i.ID, false)
	w.str(InfoProjectPath, i.ProjectPath, false)
	w.str(InfoTitle, i.Title, false)
	w.str(InfoProvider, i.Provider, true)
	w.str(InfoModel, i.Model, true)
	if i.ContextWindow != 0 {
		w.int(InfoContextWindow, i.ContextWindow)
	}
	w.time(InfoCreatedAt, i.CreatedAt, false)
	w.time(InfoUpdatedAt, i.UpdatedAt, false)
	w.time(InfoLastMessageAt, i.LastMessageAt, true)
	w.time(InfoLastAccessedAt, i.LastAccessedAt, false)
	w.time(InfoArchivedAt, i.ArchivedAt, true)
	w.int(InfoMessageCount, i.MessageCount)
	w.int(InfoToolCount, i.ToolCount)
	if w.field(InfoTokens) {
		t := i.Tokens
		w.buf = append(w.buf, '{')
		for n, v := range [...]int64{t.InputTokens, t.OutputTokens, t.CacheReadInputTokens, t.CacheCreationInputTokens, t.ContextTokens} {
			if n > 0 {
				w.buf = append(w.buf, ',')
			}
			w.buf = append(w.buf, trackerFieldNames[n]...)
			w.buf = strconv.AppendInt(w.buf, v, 10)
		}
		w.buf = append(w.buf, '}')
	}
	w.str(InfoStatus, i.Status, false)
	w.str(InfoCorruption, i.Corruption, true)
	w.str(InfoKey, i.Key, true)
	if i.Checkpoint != nil {
		w.int(InfoCheckpoint, *i.Checkpoint)
	}
	w.str(InfoSDKSession, i.SDKSession, true)
	if i.ForkedFrom != nil && w.field(InfoForkedFrom) {
		w.buf = append(w.buf, `{"sessionId":`...)
		w.buf = AppendJSONStringASCII(w.buf, i.ForkedFrom.SessionID)
		w.buf = append(w.buf, `,"uuid":`...)
		w.buf = AppendJSONStringASCII(w.buf, i.ForkedFrom.UUID)
		w.buf = append(w.buf, '}')
	}
	return append(w.buf, '}')
}

// trackerFieldNames are TokenTracker's JSON names, each with its quotes and colon.
var trackerFieldNames = [...]string{`"inputTokens":`, `"outputTokens":`, `"cacheReadInputTokens":`,
	`"cacheCreationInputTokens":`, `"contextTokens":`}

// infoWriter writes the members of one SessionInfo object.
type infoWriter struct {
	buf    []byte
	fields InfoFields
	wrote  bool
}

// field writes the name of field f, after a comma when a member came before, and reports
// whether f is wanted at all.
func (w *infoWriter) field(f InfoFields) bool {
	if w.fields&f == 0 {
		return false
	}
	if w.wrote {
		w.buf = append(w.buf, ',')
	}
	w.wrote = true
	for bit := range infoFieldCount {
		if f == 1<<bit {
			w.buf = append(w.buf, '"')
			w.buf = append(w.buf, infoFieldNames[bit]...)
			w.buf = append(w.buf, '"', ':')
		}
	}
	return true
}

func (w *infoWriter) str(f InfoFields, s string, omitEmpty bool) {
	if (s != "" || !omitEmpty) && w.field(f) {
		w.buf = AppendJSONStringASCII(w.buf, s)
	}
}

func (w *infoWriter) int(f InfoFields, v int64) {
	if w.field(f) {
		w.buf = strconv.AppendInt(w.buf, v, 10)
	}
}

func (w *infoWriter) time(f InfoFields, t time.Time, omitZero bool) {
	if (!t.IsZero() || !omitZero) && w.field(f) {
		w.buf = append(w.buf, '"')
		w.buf = AppendTime(w.buf, t)
		w.buf = append(w.buf, '"')
	}
}

// AppendTime appends t as FormatTime writes it, computing the date from the Unix time
// (days to civil date, as in H. Hinnant's chrono algorithms) instead of going through a
// layout: a listing writes thousands of times.
func AppendTime(buf []byte, t time.Time) []byte {
	ms := t.UnixMilli()
	days, rem := ms/86_400_000, ms%86_400_000
	if rem < 0 {
		days, rem = days-1, rem+86_400_000
	}
	year, month, day := civilDate(days)
	if year < 0 || year > 9999 {
		return append(buf, FormatTime(t)...)
	}
	buf = appendDigits(buf, int(year), 4)
	buf = append(buf, '-')
	buf = appendDigits(buf, int(month), 2)
	buf = append(buf, '-')
	buf = appendDigits(buf, int(day), 2)
	buf = append(buf, 'T')
	buf = appendDigits(buf, int(rem/3_600_000), 2)
	buf = append(buf, ':')
	buf = appendDigits(buf, int(rem/60_000%60), 2)
	buf = append(buf, ':')
	buf = appendDigits(buf, int(rem/1000%60), 2)
	buf = append(buf, '.')
	buf = appendDigits(buf, int(rem%1000), 3)
	return append(buf, 'Z')
}

// civilDate returns the proleptic Gregorian date days after 1970-01-01.
func civilDate(days int64) (year, month, day int64) {
	z := days + 719_468
	era := z / 146_097
	if z < 0 && z%146_097 != 0 {
		era--
	}
	doe := z - era*146_097
	yoe := (doe - doe/1460 + doe/36_524 - doe/146_096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = doy - (153*mp+2)/5 + 1
	month = mp + 3
	if month > 12 {
		month -= 12
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

// appendDigits appends v, 0 ≤ v < 10^width, zero-padded to width digits.
func appendDigits(buf []byte, v, width int) []byte {
	for div := pow10(width - 1); div > 0; div /= 10 {
		buf = append(buf, byte('0'+v/div%10))
	}
	return buf
}

func pow10(n int) int {
	p := 1
	for range n {
		p *= 10
	}
	return p
}

// AppendJSONStringASCII appends s as a JSON string of ASCII only: quotes, backslashes and
// control characters escaped as JSON requires, every non-ASCII character as \uXXXX, and
// bytes that are not UTF-8 as U+FFFD.
func AppendJSONStringASCII(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		if n := plainPrefix(s[i:]); n > 0 {
			buf = append(buf, s[i:i+n]...)
			i += n
			if i == len(s) {
				break
			}
		}
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			buf = appendEscapedRune(buf, r)
			i += size
			continue
		case c == '"' || c == '\\' || c < 0x20:
			buf = appendEscaped16(buf, uint16(c)) // the escapes JSON.stringify writes
		default:
			buf = append(buf, c)
		}
		i++
	}
	return append(buf, '"')
}

// plainPrefix returns how many leading bytes of s a JSON string holds as they are (ASCII
// but for quotes, backslashes and control characters), looking at eight at a time.
func plainPrefix(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		special := (x - ones*0x20) | (quote-ones) & ^quote | (backslash-ones) & ^backslash
		if (special|x)&highs != 0 {
			break
		}
	}
	for ; i < len(s) && s[i] >= 0x20 && s[i] < utf8.RuneSelf && s[i] != '"' && s[i] != '\\'; i++ {
	}
	return i
}
