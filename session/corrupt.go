package session

import (
	"errors"
	"fmt"

	"github.com/goccy/go-json"
)

// markIfCorrupt records on the session why it is corrupted, when err says its rows cannot
// be read, so that listings show it; err is returned as it is.
func (s *Session) markIfCorrupt(err error) error {
	if errors.Is(err, ErrSessionCorrupt) || errors.Is(err, ErrCorrupt) {
		s.mgr.store.Apply(MarkCorrupted{SessionID: s.id, Reason: err.Error()})
	}
	return err
}

// Verify reads every message of the session and checks that what is stored is well formed:
// readable columns, and JSON for message fields and every block. A damaged session is
// marked corrupted and Verify returns ErrSessionCorrupt saying where.
func (s *Session) Verify() error {
	if err := s.readable(); err != nil {
		return err
	}
	err := s.mgr.store.ScanMessages(s.id, checkStored)
	return s.markIfCorrupt(err)
}

// checkStored checks the JSON of one stored message.
func checkStored(m *StoredMessage) error {
	if !validObject(m.Meta) || !validObject(m.Extra) {
		return fmt.Errorf("%w: the fields of message %d (%s) are not a JSON object", ErrSessionCorrupt, m.Seq, m.UUID)
	}
	for i, b := range m.Blocks {
		if !json.Valid(b) {
			return fmt.Errorf("%w: block %d of message %d (%s) is not valid JSON", ErrSessionCorrupt, i, m.Seq, m.UUID)
		}
	}
	return nil
}

func validObject(b []byte) bool {
	return len(b) == 0 || (b[0] == '{' && json.Valid(b))
}
