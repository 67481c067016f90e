package session

import (
	"fmt"
	"time"
	"unicode/utf16"

	"github.com/goccy/go-json"
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
	}{plain(e), FormatTime(e.At)})
}

// HostedState is what a hosted agent keeps on its session: the last committed pubsub
// checkpoint and the SDK's own session id.
type HostedState struct {
	Checkpoint   *int64 `json:"checkpoint,omitempty"`
	SDKSessionID string `json:"sdkSessionId,omitempty"`
}

// Hosted returns the session's checkpoint and SDK session id.
func (s *Session) Hosted() (HostedState, error) {
	if err := s.lock(); err != nil {
		return HostedState{}, err
	}
	defer s.mu.Unlock()
	return s.hosted, nil
}

// CommitCheckpoint records that the agent has safely processed pubsub message pubsubID,
// and everything recorded in the session so far. The session is active again.
func (s *Session) CommitCheckpoint(pubsubID int64) error {
	if pubsubID < 0 {
		return fmt.Errorf("%w: the pubsub id must not be negative", ErrInvalidArgument)
	}
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.hosted.Checkpoint = &pubsubID
	s.seenSeq = s.nextSeq
	s.mgr.store.Apply(SetCheckpoint{SessionID: s.id, Checkpoint: pubsubID, SeenSeq: s.seenSeq})
	return nil
}

// UpdateSDKSession records the SDK's own session id, once the model has finished: the SDK
// session has seen everything recorded so far.
func (s *Session) UpdateSDKSession(id string) error {
	if id == "" {
		return fmt.Errorf("%w: the SDK session id is empty; use clearSdkSession() to forget it", ErrInvalidArgument)
	}
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.hosted.SDKSessionID = id
	s.seenSeq = s.nextSeq
	s.mgr.store.Apply(SetSDKSession{SessionID: s.id, SDKSessionID: id, Seen: true, SeenSeq: s.seenSeq})
	return nil
}

// ClearSDKSession forgets the SDK's session id, so that the next run starts a new one.
func (s *Session) ClearSDKSession() error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.hosted.SDKSessionID = ""
	s.mgr.store.Apply(SetSDKSession{SessionID: s.id})
	return nil
}

// StoreMessage appends an entry to the session's manual history, for responders whose SDK
// keeps no conversation and replays it from here.
func (s *Session) StoreMessage(role, content string) error {
	if role != "user" && role != "assistant" {
		return fmt.Errorf("%w: role must be \"user\" or \"assistant\", not %q", ErrInvalidArgument, role)
	}
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.mgr.store.Apply(AddHistory{SessionID: s.id, Role: role, Content: content, At: s.mgr.now().UTC()})
	return nil
}

// History returns the last limit entries of the manual history, oldest first; all of them
// when limit is 0.
func (s *Session) History(limit int) ([]HistoryEntry, error) {
	if limit < 0 {
		return nil, fmt.Errorf("%w: limit must not be negative", ErrInvalidArgument)
	}
	if err := s.readable(); err != nil {
		return nil, err
	}
	return s.mgr.store.History(s.id, limit)
}

// ClearHistory deletes the manual history; the session's messages are not touched.
func (s *Session) ClearHistory() error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.mgr.store.Apply(ClearHistory{SessionID: s.id})
	return nil
}

// Status returns the session's status as stored: active, interrupted, archived or corrupted.
func (s *Session) Status() (string, error) {
	if err := s.readable(); err != nil {
		return "", err
	}
	found, err := s.mgr.store.FindSessions(s.id, 1)
	if err != nil {
		return "", err
	}
	if len(found) == 0 || found[0].ID != s.id {
		return "", fmt.Errorf("%w: session %s was deleted", ErrSessionNotFound, s.id)
	}
	return found[0].Status, nil
}

// MissedContext is the messages a hosted agent missed, formatted for its next prompt.
type MissedContext struct {
	// Count is how many missed messages Formatted holds.
	Count int `json:"count"`
	// Omitted is how many older missed messages did not fit.
	Omitted   int    `json:"omitted"`
	Formatted string `json:"formatted"`
}

// FormatMissedContext formats the messages recorded since the agent last committed a
// checkpoint or updated its SDK session, newest kept, in at most maxChars characters as
// JavaScript counts them (UTF-16 code units). A newest message longer than that is cut.
func (s *Session) FormatMissedContext(maxChars int) (MissedContext, error) {
	if maxChars <= 0 {
		return MissedContext{}, fmt.Errorf("%w: maxChars must be positive", ErrInvalidArgument)
	}
	if err := s.lock(); err != nil {
		return MissedContext{}, err
	}
	from, total := s.seenSeq, s.nextSeq-s.seenSeq
	s.mu.Unlock()
	if err := s.readable(); err != nil {
		return MissedContext{}, err
	}
	var lines []string
	used := 0
	err := s.mgr.store.ScanMessagesBackward(s.id, from, func(m *StoredMessage) bool {
		line := missedLine(m)
		n := utf16Len(line)
		if len(lines) > 0 {
			n++ // the newline before it
		}
		if used+n > maxChars {
			if len(lines) == 0 {
				lines = append(lines, cutUTF16(line, maxChars))
			}
			return false
		}
		lines = append(lines, line)
		used += n
		return true
	})
	if err != nil {
		return MissedContext{}, err
	}
	mc := MissedContext{Count: len(lines), Omitted: max(0, int(total)-len(lines))}
	for i := len(lines) - 1; i >= 0; i-- {
		mc.Formatted += lines[i]
		if i > 0 {
			mc.Formatted += "\n"
		}
	}
	return mc, nil
}

// missedLine is one message of the missed context: "[time] role: text".
func missedLine(m *StoredMessage) string {
	return fmt.Sprintf("[%s] %s: %s", FormatTime(m.CreatedAt), m.Role, BlocksText(m.Blocks))
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// cutUTF16 cuts s to at most max UTF-16 code units, ending it with "…".
func cutUTF16(s string, max int) string {
	n := 0
	for i, r := range s {
		if n+utf16.RuneLen(r)+1 > max {
			return s[:i] + "…"
		}
		n += utf16.RuneLen(r)
	}
	return s
}
