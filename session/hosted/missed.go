package hosted

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

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
func FormatMissedContext(s *session.Session, maxChars int) (MissedContext, error) {
	if maxChars <= 0 {
		return MissedContext{}, fmt.Errorf("%w: maxChars must be positive", session.ErrInvalidArgument)
	}
	from, total, err := s.Unseen()
	if err != nil {
		return MissedContext{}, err
	}
	if err := s.Sync(); err != nil {
		return MissedContext{}, err
	}
	st, err := storeOf(s)
	if err != nil {
		return MissedContext{}, err
	}
	var lines []string
	used := 0
	err = st.ScanMessagesBackward(s.ID(), from, func(m *session.StoredMessage) bool {
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
	slices.Reverse(lines) // collected newest first
	return MissedContext{Count: len(lines), Omitted: max(0, int(total)-len(lines)), Formatted: strings.Join(lines, "\n")}, nil
}

// missedLine is one message of the missed context: "[time] role: text".
func missedLine(m *session.StoredMessage) string {
	return fmt.Sprintf("[%s] %s: %s", jsonenc.FormatTime(m.CreatedAt), m.Role, blocks.BlocksText(m.Blocks))
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
