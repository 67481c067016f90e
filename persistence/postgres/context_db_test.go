package postgres

import "testing"

// TestNumbered numbers a shared statement's placeholders in order.
func TestNumbered(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT 1`: `SELECT 1`,
		`SELECT seq FROM messages WHERE sid = ? AND seq >= ? AND (? AND role = 'assistant')`: `SELECT seq FROM messages WHERE sid = $1 AND seq >= $2 AND ($3 AND role = 'assistant')`,
	} {
		if got := numbered(in); got != want {
			t.Errorf("numbered(%q) = %q, want %q", in, got, want)
		}
	}
}
