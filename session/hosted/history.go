package hosted

import (
	"fmt"
	"time"

	"github.com/goccy/go-json"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// HistoryEntry is one entry of the manual history of a stateless responder.
type HistoryEntry struct {
	Role    string    `json:"role"`
	Content string    `json:"content"`
	At      time.Time `json:"-"`
}

// MarshalJSON writes the time as envelopes do.
func (e HistoryEntry) MarshalJSON() ([]byte, error) {
	type plain HistoryEntry
	return json.Marshal(struct {
		plain
		Timestamp string `json:"timestamp"`
	}{plain(e), jsonenc.FormatTime(e.At)})
}

// StoreMessage appends an entry to the session's manual history, for responders whose SDK
// keeps no conversation and replays it from here.
func StoreMessage(s *session.Session, role, content string) error {
	if role != "user" && role != "assistant" {
		return fmt.Errorf("%w: role must be \"user\" or \"assistant\", not %q", session.ErrInvalidArgument, role)
	}
	return s.Record(session.AddHistory{SessionID: s.ID(), Role: role, Content: content, At: s.Now().UTC()})
}

// History returns the last limit entries of the manual history, oldest first; all of them
// when limit is 0.
func History(s *session.Session, limit int) ([]HistoryEntry, error) {
	if limit < 0 {
		return nil, fmt.Errorf("%w: limit must not be negative", session.ErrInvalidArgument)
	}
	if err := s.Sync(); err != nil {
		return nil, err
	}
	st, err := storeOf(s)
	if err != nil {
		return nil, err
	}
	return st.History(s.ID(), limit)
}

// ClearHistory deletes the manual history; the session's messages are not touched.
func ClearHistory(s *session.Session) error {
	return s.Record(session.ClearHistory{SessionID: s.ID()})
}
