package sqlite

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// The extra column of an imported record is packed as an imported body is
// (packImportedBody): a record that is not a message (a Codex event, a progress report, a
// queue operation) has no body, and its source record is all its row keeps; a message's
// extra fields are in its body (extraInBody), but not always exactly (text escaped in the
// body, plain UTF-8 in the column), and then the column holds them too. Together 0.52 MB
// of the real transcripts' import, 0.30 MB packed. A live record's stays plain JSON. A
// packed column starts with dictMarker, a plain one with '{', an extraInBody one is empty.

// storedWholeExtra returns the extra column of a record stored whole (wholeRecordColumns):
// packed when it was imported.
func storedWholeExtra(extra []byte, imported bool) []byte {
	extra = jsonObject(extra)
	if !imported {
		return extra
	}
	return packedExtra(extra)
}

// packExtraAbove is the length over which an imported extra column is packed. Most
// messages' columns are shorter (1,311 of the real transcripts', 22 KB in all: a call's
// id, the part of the fields the body does not hold exactly): a zstd frame costs about as
// much CPU for them as for a body and would save almost nothing.
const packExtraAbove = 128

// packedExtra returns an imported record's extra column packed, unless it is short or
// would not shrink.
func packedExtra(extra []byte) []byte {
	if len(extra) <= packExtraAbove {
		return extra
	}
	return packImportedBody(nil, extra)
}

// extraColumn returns the extra column of message seq as JSON: itself, or unpacked. One
// that does not unpack is ErrSessionCorrupt.
func extraColumn(column []byte, seq int64) ([]byte, error) {
	if !isDictPacked(column) {
		return column, nil
	}
	extra, err := unpackDictBody(nil, column)
	if err != nil {
		return nil, fmt.Errorf("%w: message %d has unreadable extra fields", session.ErrSessionCorrupt, seq)
	}
	return extra, nil
}
