package sessiontest

import (
	"encoding/json"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// Prompt appends the user message text and returns its envelope decoded.
func Prompt(t testing.TB, s *session.Session, text string) map[string]any {
	t.Helper()
	raw, err := s.AppendUserMessage(MustMarshal(t, text))
	if err != nil {
		t.Fatalf("AppendUserMessage(%q): %v", text, err)
	}
	return DecodeObject(t, raw)
}

// Messages returns Messages(false) decoded.
func Messages(t testing.TB, s *session.Session) []map[string]any {
	t.Helper()
	return decodeList(t, s, false)
}

// Envelopes returns Messages(true) decoded.
func Envelopes(t testing.TB, s *session.Session) []map[string]any {
	t.Helper()
	return decodeList(t, s, true)
}

// Tracker returns the session's token accounting.
func Tracker(t testing.TB, s *session.Session) session.TokenTracker {
	t.Helper()
	tr, err := s.TokenTracker()
	if err != nil {
		t.Fatalf("TokenTracker: %v", err)
	}
	return tr
}

func decodeList(t testing.TB, s *session.Session, withEnvelope bool) []map[string]any {
	t.Helper()
	raw, err := s.Messages(withEnvelope)
	if err != nil {
		t.Fatalf("Messages(%v): %v", withEnvelope, err)
	}
	var out []map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("Messages(%v) is not a JSON array of objects: %v\n%s", withEnvelope, err, raw)
	}
	return out
}

// Content returns the content blocks of an API message.
func Content(t testing.TB, msg map[string]any) []map[string]any {
	t.Helper()
	list, ok := msg["content"].([]any)
	if !ok {
		t.Fatalf("message has no content array: %v", msg)
	}
	out := make([]map[string]any, len(list))
	for i, b := range list {
		if out[i], ok = b.(map[string]any); !ok {
			t.Fatalf("content[%d] is not an object: %v", i, b)
		}
	}
	return out
}

// DecodeObject parses raw as a JSON object.
func DecodeObject(t testing.TB, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, raw)
	}
	return m
}

// Decode parses JSON text written in a test into the generic form Messages decodes to.
func Decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %q: %v", s, err)
	}
	return v
}

// MustMarshal encodes v as JSON.
func MustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Must returns v, panicking on err; for calls whose error a test does not examine.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
