package sqlite

import "github.com/sessionkeep/sessionkeep/session"

// wholeRecordColumns returns the stored columns of a record that is not a message (a
// summary, a system notice, a progress report: no role, no blocks) which begins and ends in
// the batch being applied: endMessage inserts it as it ends, with one INSERT. Such a record
// used to be inserted streaming, updated to end it and read back to find it has no body:
// three statements for each of the 607 such records of the real transcripts, a third of
// what an import writes. It has nothing to journal and no body, so the row is its whole
// record; an imported one's extra column is packed (storedWholeExtra).
func wholeRecordColumns(op session.EndMessage) recordColumns {
	return recordColumns{meta: jsonObject(op.Meta), extra: storedWholeExtra(op.Extra, op.Imported)}
}

// isWholeRecord reports whether b, ending in the batch it began in, is a record that is
// not a message and holds no block: its row is its whole record (wholeRecordColumns).
func (b *openBody) isWholeRecord() bool {
	return b.unwritten && b.header.Role == "" && len(b.blocks) == 0
}
