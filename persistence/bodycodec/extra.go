package bodycodec

// The extra column of an imported record is packed as an imported body is (PackImported):
// a record that is not a message (a Codex event, a progress report, a queue operation) has
// no body, and its source record is all its row keeps. Together 0.52 MB of the real
// transcripts' import, 0.30 MB packed. A live record's stays plain JSON. A packed column
// starts with DictMarker or DictS2Marker, a plain one with '{'.

// packExtraAbove is the length over which an imported extra column is packed. Most
// messages' columns are shorter (1,311 of the real transcripts', 22 KB in all: a call's
// id, the part of the fields the body does not hold exactly): a zstd frame costs about as
// much CPU for them as for a body and would save almost nothing.
const packExtraAbove = 128

// PackImportedExtra returns an imported record's extra column packed, unless it is short
// or would not shrink.
func PackImportedExtra(extra []byte) []byte {
	if len(extra) <= packExtraAbove {
		return extra
	}
	return PackImported(nil, extra)
}

// UnpackExtra returns an extra column as JSON: itself when plain, else unpacked. One that
// does not unpack is ErrBadBody.
func UnpackExtra(column []byte) ([]byte, error) {
	if !IsDictPacked(column) {
		return column, nil
	}
	return unpackDict(nil, column)
}
