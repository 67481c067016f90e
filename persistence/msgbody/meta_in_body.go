package msgbody

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// A message's meta fields (its API message's id, model, stop reason, usage: everything
// beside role and content) are written at the end of its body's message object, after the
// content array (session.AppendMessageTail). On the real transcripts the meta column held
// them a second time: 0.17 MB of a 4.68 MB imported store, the same on every assistant
// message of W1. So a message whose body holds its meta fields exactly stores an empty
// meta column (MetaInBody), and readers cut the fields out of the body (MetaOf). The column
// keeps its copy when the body's would differ (meta with non-ASCII text, which the body
// escapes) or when the message has no block to find the end of its content by.
//
// An empty meta column is unambiguous: before this the column was never empty (it holds
// "{}" for none), so a store written before it reads as it did.

// MetaInBody is the meta column of a message whose body holds its meta fields.
var MetaInBody = []byte{}

// errNoMetaInBody is a body whose meta fields cannot be told apart.
var errNoMetaInBody = errors.New("no meta fields after the content of the body")

// StoredMeta returns what the meta column of a message holds beside body and its layout
// l: MetaInBody when the body holds meta exactly, else meta itself.
func StoredMeta(meta, body []byte, l Layout) []byte {
	if len(meta) <= 2 {
		return meta // "{}" costs nothing, and an empty column would read as MetaInBody
	}
	fields, err := metaFields(body, l)
	if err != nil || !bytes.Equal(fields, meta[1:len(meta)-1]) {
		return meta
	}
	return MetaInBody
}

// MetaOf returns a message's meta as a JSON object: the meta column, or, when it is
// MetaInBody (which SQLite's driver reads back as nil), the fields cut out of body, whose
// layout is l. A body they cannot be cut from is a damaged store.
func MetaOf(column, body []byte, l Layout, seq int64) ([]byte, error) {
	if len(column) > 0 || body == nil {
		return column, nil
	}
	fields, err := metaFields(body, l)
	if err != nil {
		return nil, fmt.Errorf("%w: message %d: its meta cannot be read from its body: %v", session.ErrSessionCorrupt, seq, err)
	}
	meta := make([]byte, 0, len(fields)+2)
	return append(append(append(meta, '{'), fields...), '}'), nil
}

// metaFields returns the meta fields of body's message without the braces of their object:
// what follows `],` after the last block, up to the closing braces of the message and the
// envelope. The last block's end is in the layout, so no string inside a block is taken
// for the end of the content.
func metaFields(body []byte, l Layout) ([]byte, error) {
	if len(l.Blocks) == 0 {
		return nil, errNoMetaInBody
	}
	last := l.Blocks[len(l.Blocks)-1]
	rest := body[last.At+last.N:]
	if !bytes.HasPrefix(rest, []byte("],")) || !bytes.HasSuffix(rest, []byte("}}")) || len(rest) < len("],}}")+1 {
		return nil, errNoMetaInBody
	}
	return rest[2 : len(rest)-2], nil
}
