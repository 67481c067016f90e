package postgres

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// A complete block's JSON is stored in the blocks table as the SQLite backend stores a live
// message's body (persistence/bodycodec): packed with s2 when it is over
// bodycodec.LivePackAbove and packing makes it smaller, plain otherwise. PostgreSQL's own
// compression (TOAST, pglz) starts only at about 2 KB a row and packs less than s2, so the
// blocks of 1-2 KB, most of a session's, were kept as they came. A partial checkpoint stays
// plain: the next one replaces it, and packing it would cost the streaming path CPU for
// nothing kept. A block written before packing is plain and reads as it is: the first byte
// tells the forms apart, so the table needs no other column. Search reads search_text,
// never the body, and a fork copies the stored bytes as they are.

// storedBlock returns the body column of block op.
func storedBlock(op session.PutBlock) []byte {
	if op.Partial {
		return op.JSON
	}
	return bodycodec.Pack(nil, op.JSON, bodycodec.LivePackAbove)
}

// appendBlock appends the JSON of a stored block of message seq to blocks. A packed block
// that does not unpack is ErrSessionCorrupt.
func appendBlock(blocks [][]byte, stored []byte, seq int64) ([][]byte, error) {
	block, err := bodycodec.Unpack(nil, stored)
	if err != nil {
		return blocks, fmt.Errorf("%w: a block of message %d does not unpack", session.ErrSessionCorrupt, seq)
	}
	return append(blocks, block), nil
}
