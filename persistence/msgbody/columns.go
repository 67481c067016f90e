package msgbody

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// Columns are the columns a record that has ended is stored with: its meta and extra
// fields and, for a message, its body and layout (nil for a record that is not one).
type Columns struct {
	Meta, Extra  []byte
	Body, Layout []byte
}

// MessageColumns returns the stored columns of message m as bb encodes it: the body packed
// as a live or an imported one is (bb's storage, valid until its next Build), meta and
// extra without what the body holds, extra packed for an imported message.
func MessageColumns(bb *Builder, m *session.StoredMessage, imported bool) Columns {
	body, lay, l := bb.Build(m, imported)
	extra := StoredExtra(m.Extra, bb.Plain(), l)
	if imported {
		extra = bodycodec.PackImportedExtra(extra)
	}
	return Columns{Meta: StoredMeta(m.Meta, bb.Plain(), l), Extra: extra, Body: body, Layout: lay}
}

// WholeRecordColumns returns the stored columns of a record that is not a message (a
// summary, a system notice, a progress report: no role, no blocks) which begins and ends in
// the batch being applied, so that a writer inserts it as it ends, with one INSERT. Such a
// record used to be inserted streaming, updated to end it and read back to find it has no
// body: three statements for each of the 607 such records of the real transcripts, a third
// of what an import writes. It has nothing to journal and no body, so the row is its whole
// record; an imported one's extra column is packed.
func WholeRecordColumns(op session.EndMessage) Columns {
	extra := JSONObject(op.Extra)
	if op.Imported {
		extra = bodycodec.PackImportedExtra(extra)
	}
	return Columns{Meta: JSONObject(op.Meta), Extra: extra}
}

// The extra column of an imported record is packed (bodycodec.PackImportedExtra): a
// message's extra fields are in its body (ExtraInBody), but not always exactly (text
// escaped in the body, plain UTF-8 in the column), and then the column holds them too; a
// record that is not a message has only the column. An ExtraInBody one is empty.

// ExtraColumn returns the extra column of message seq as JSON: itself, or unpacked. One
// that does not unpack is session.ErrSessionCorrupt.
func ExtraColumn(column []byte, seq int64) ([]byte, error) {
	extra, err := bodycodec.UnpackExtra(column)
	if err != nil {
		return nil, fmt.Errorf("%w: message %d has unreadable extra fields", session.ErrSessionCorrupt, seq)
	}
	return extra, nil
}

// JSONObject returns obj, or an empty JSON object for nil: meta and extra are never NULL.
func JSONObject(obj []byte) []byte {
	if len(obj) == 0 {
		return []byte("{}")
	}
	return obj
}
