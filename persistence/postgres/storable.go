package postgres

import "strings"

// storableText is s as PostgreSQL text can hold it: a NUL character, or bytes that are not
// UTF-8, become U+FFFD. SQLite text holds both, and callers pass them (a title made from a
// prompt, a project path, an id read from a file); refusing them would refuse the session,
// and a read with them would fail instead of finding nothing.
func storableText(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// storableArgs is args with each string made storableText, so that a write stores what
// PostgreSQL can hold and a read looks for what that write stored: an id with a NUL is then
// a session not found, as on SQLite, rather than a statement PostgreSQL rejects.
func storableArgs(args []any) []any {
	var out []any
	for i, arg := range args {
		s, ok := arg.(string)
		if !ok || storableText(s) == s {
			continue
		}
		if out == nil {
			out = append([]any{}, args...)
		}
		out[i] = storableText(s)
	}
	if out == nil {
		return args
	}
	return out
}
