package sqlite

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// The extra column of an imported record is packed (bodycodec.PackImportedExtra): a
// message's extra fields are in its body (extraInBody), but not always exactly (text
// escaped in the body, plain UTF-8 in the column), and then the column holds them too; a
// record that is not a message has only the column. An extraInBody one is empty.

// storedWholeExtra returns the extra column of a record stored whole (wholeRecordColumns):
// packed when it was imported.
func storedWholeExtra(extra []byte, imported bool) []byte {
	extra = jsonObject(extra)
	if !imported {
		return extra
	}
	return bodycodec.PackImportedExtra(extra)
}

// extraColumn returns the extra column of message seq as JSON: itself, or unpacked. One
// that does not unpack is ErrSessionCorrupt.
func extraColumn(column []byte, seq int64) ([]byte, error) {
	extra, err := bodycodec.UnpackExtra(column)
	if err != nil {
		return nil, fmt.Errorf("%w: message %d has unreadable extra fields", session.ErrSessionCorrupt, seq)
	}
	return extra, nil
}
