package msgbody

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// Unpacked is bodycodec.Unpack for a reader of message seq: a damaged body is
// session.ErrSessionCorrupt.
func Unpacked(dst, stored []byte, seq int64) ([]byte, error) {
	body, err := bodycodec.Unpack(dst, stored)
	if err != nil {
		return nil, Unreadable(seq)
	}
	return body, nil
}

// StoredBlocks appends the blocks of message seq's stored body, whose layout is lay, to
// blocks, unpacked; a body that does not unpack or a layout that does not fit it is
// session.ErrSessionCorrupt.
func StoredBlocks(stored, lay []byte, blocks [][]byte, seq int64) ([][]byte, error) {
	body, err := Unpacked(nil, stored, seq)
	if err != nil {
		return blocks, err
	}
	return PlainBlocks(body, lay, blocks, seq)
}

// PlainBlocks is StoredBlocks for a body already unpacked.
func PlainBlocks(body, lay []byte, blocks [][]byte, seq int64) ([][]byte, error) {
	l, err := DecodeLayout(lay, len(body), nil)
	if err == nil {
		blocks, err = BlocksOf(body, l, blocks)
	}
	if err != nil {
		return blocks, Unreadable(seq)
	}
	return blocks, nil
}

// FieldsAndBlocks returns a message's meta (MetaOf, given the meta column), its extra
// fields (ExtraOf, given the extra column) and its blocks appended to blocks, from its
// stored body and layout, unpacked once for all three.
func FieldsAndBlocks(metaColumn, extraColumn, stored, lay []byte, blocks [][]byte, seq int64) (meta, extra []byte, _ [][]byte, _ error) {
	body, err := Unpacked(nil, stored, seq)
	if err != nil {
		return metaColumn, extraColumn, blocks, err
	}
	l, err := DecodeLayout(lay, len(body), nil)
	if err != nil {
		return metaColumn, extraColumn, blocks, Unreadable(seq)
	}
	meta, err = MetaOf(metaColumn, body, l, seq)
	if err != nil {
		return metaColumn, extraColumn, blocks, err
	}
	extra, err = ExtraOf(extraColumn, body, l, seq)
	if err != nil {
		return meta, extraColumn, blocks, err
	}
	if blocks, err = BlocksOf(body, l, blocks); err != nil {
		return meta, extra, blocks, Unreadable(seq)
	}
	return meta, extra, blocks, nil
}

// Unreadable is the error of message seq, whose body or layout cannot be read.
func Unreadable(seq int64) error {
	return fmt.Errorf("%w: message %d has an unreadable body", session.ErrSessionCorrupt, seq)
}
