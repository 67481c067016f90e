package msgbody

import (
	"bytes"

	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// SessionIDField is the sessionId field of the bodies of session id's messages.
func SessionIDField(id string) []byte {
	return jsonenc.AppendString([]byte(`,"sessionId":`), id)
}

// Renamed returns body, unpacked, with its sessionId field oldField replaced by newField
// (SessionIDField), and its layout lay shifted to match: a fork's copy of a message of
// its origin. The field is the first one of its name: no JSON string can hold its
// unescaped quotes, so the first match is the envelope's own field.
func Renamed(body, lay, oldField, newField []byte) ([]byte, []byte, error) {
	l, err := DecodeLayout(lay, len(body), nil)
	if err != nil {
		return nil, nil, err
	}
	at := bytes.Index(body[:l.MessageAt], oldField)
	if at < 0 {
		return nil, nil, ErrBadLayout
	}
	renamed := make([]byte, 0, len(body)+len(newField)-len(oldField))
	renamed = append(append(append(renamed, body[:at]...), newField...), body[at+len(oldField):]...)
	shift := len(newField) - len(oldField)
	l.MessageAt += shift
	for i := range l.Blocks {
		l.Blocks[i].At += shift
	}
	return renamed, l.Encode(), nil
}
