package bodycodec

import (
	"errors"

	"github.com/klauspost/compress/s2"
)

// A message body is stored packed (s2, github.com/klauspost/compress) when it is large
// enough for packing to pay, and plain otherwise. A packed body starts with PackedMarker,
// a byte no JSON text starts with, so a reader tells the two apart without a column, and
// the plain bodies of a store written before packing read as they are. Pack, PackImported
// and Unpack are the only functions that know the stored form: every read of a body goes
// through Unpack (on SQLite also as unpack_body in SQL: search's view, Turns).

// PackedMarker starts a packed body; what follows is one s2 block.
const PackedMarker = 0x00

// LivePackAbove is the size over which a body written live (ingest, append) is packed with
// s2; an import's are packed with a dictionary (dict.go). 1 KB since round 5 (the
// bodies of 1–4 KB, an assistant reply with its tool calls, are most of a session's rows).
// Round 7 measured 32 KB (bench/README.md, issue 16 round 7): 4–8 ms less Go CPU per
// 2,000-message restore, but in the same harness run beside 1 KB the restores' wall times
// moved 1–3 %, W1 and W3 not beyond their spread, and the stores grew from 0.66× to 0.93×
// their JSONL, so it stays 1 KB.
const LivePackAbove = 1024

// maxBodyLen bounds the length a packed body may claim: SQLite's own limit on a value
// (SQLITE_MAX_LENGTH), which no body could exceed when it was built, before packing;
// PostgreSQL's on a bytea value (1 GB) is the same size.
const maxBodyLen = 1_000_000_000

// ErrBadBody is a packed body that cannot be unpacked: the store is damaged.
var ErrBadBody = errors.New("damaged packed message body")

// Pack returns the stored form of body: body itself when it is no larger than above
// or packing would not make it smaller, else PackedMarker and body's s2 block, in dst's
// storage when it is large enough.
func Pack(dst, body []byte, above int) []byte {
	if len(body) <= above {
		return body
	}
	need := 1 + s2.MaxEncodedLen(len(body))
	if cap(dst) < need {
		dst = make([]byte, need)
	}
	dst = dst[:need]
	dst[0] = PackedMarker
	packed := dst[:1+len(s2.Encode(dst[1:], body))]
	if len(packed) >= len(body) {
		return body
	}
	return packed
}

// Unpack returns the body JSON of a stored body: stored itself when it is plain, or,
// when it is packed, the body unpacked into dst's storage when it is large enough (a
// reader that is done with each body before the next passes the same buffer back), else
// into a new slice. A damaged body is ErrBadBody.
func Unpack(dst, stored []byte) ([]byte, error) {
	if !IsPacked(stored) {
		return stored, nil
	}
	if stored[0] != PackedMarker {
		return unpackDict(dst, stored)
	}
	if n, err := s2.DecodedLen(stored[1:]); err != nil || n > maxBodyLen {
		return nil, ErrBadBody // a damaged length must not make us allocate gigabytes
	}
	body, err := s2.Decode(dst[:cap(dst)], stored[1:])
	if err != nil {
		return nil, ErrBadBody
	}
	return body, nil
}

// IsPacked reports whether a stored body is packed: with s2, or (an imported record's,
// dict.go) with a dictionary.
func IsPacked(stored []byte) bool {
	return (len(stored) > 0 && stored[0] == PackedMarker) || IsDictPacked(stored)
}
