package sqlite

import (
	"database/sql/driver"
	"errors"

	"github.com/klauspost/compress/s2"
	"modernc.org/sqlite"
)

// A message body is stored packed (s2, github.com/klauspost/compress) when it is large
// enough for packing to pay, and plain otherwise. A packed body starts with packedMarker,
// a byte no JSON text starts with, so a reader tells the two apart without a column, and
// the plain bodies of a store written before packing read as they are. packBody and
// unpackBody are the only functions that know the stored form: every read of the body
// column goes through unpackBody in Go, or unpack_body in SQL (search's view, Turns).

// packedMarker starts a packed body; what follows is one s2 block.
const packedMarker = 0x00

// livePackAbove is the size over which a body written live (ingest, append) is packed with
// s2; an import's are packed with a dictionary (body_dict.go). 1 KB since round 5 (the
// bodies of 1–4 KB, an assistant reply with its tool calls, are most of a session's rows).
// Round 7 measured 32 KB (bench/README.md, issue 16 round 7): 4–8 ms less Go CPU per
// 2,000-message restore, but in the same harness run beside 1 KB the restores' wall times
// moved 1–3 %, W1 and W3 not beyond their spread, and the stores grew from 0.66× to 0.93×
// their JSONL, so it stays 1 KB.
const livePackAbove = 1024

// maxBodyLen bounds the length a packed body may claim: SQLite's own limit on a value
// (SQLITE_MAX_LENGTH), which no body could exceed when it was built, before packing.
const maxBodyLen = 1_000_000_000

// errBadBody is a packed body s2 cannot unpack: the file is damaged.
var errBadBody = errors.New("damaged packed message body")

// packBody returns the stored form of body: body itself when it is no larger than above
// or packing would not make it smaller, else packedMarker and body's s2 block, in dst's
// storage when it is large enough.
func packBody(dst, body []byte, above int) []byte {
	if len(body) <= above {
		return body
	}
	need := 1 + s2.MaxEncodedLen(len(body))
	if cap(dst) < need {
		dst = make([]byte, need)
	}
	dst = dst[:need]
	dst[0] = packedMarker
	packed := dst[:1+len(s2.Encode(dst[1:], body))]
	if len(packed) >= len(body) {
		return body
	}
	return packed
}

// unpackBody returns the body JSON of a stored body: stored itself when it is plain, or,
// when it is packed, the body unpacked into dst's storage when it is large enough (a
// reader that is done with each body before the next passes the same buffer back), else
// into a new slice.
func unpackBody(dst, stored []byte) ([]byte, error) {
	if !isPacked(stored) {
		return stored, nil
	}
	if stored[0] != packedMarker {
		return unpackDictBody(dst, stored)
	}
	if n, err := s2.DecodedLen(stored[1:]); err != nil || n > maxBodyLen {
		return nil, errBadBody // a damaged length must not make us allocate gigabytes
	}
	body, err := s2.Decode(dst[:cap(dst)], stored[1:])
	if err != nil {
		return nil, errBadBody
	}
	return body, nil
}

// isPacked reports whether a stored body is packed: with s2, or (an imported record's,
// body_dict.go) with a dictionary.
func isPacked(stored []byte) bool {
	return (len(stored) > 0 && stored[0] == packedMarker) || isDictPacked(stored)
}

// unpackedBody is unpackBody for a reader of message seq: a damaged body is
// ErrSessionCorrupt.
func unpackedBody(dst, stored []byte, seq int64) ([]byte, error) {
	body, err := unpackBody(dst, stored)
	if err != nil {
		return nil, unreadableBody(seq)
	}
	return body, nil
}

// unpackBodySQL is unpack_body(x), unpackBody in SQL: NULL stays NULL.
func unpackBodySQL(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	stored := asBytes(args[0])
	if stored == nil {
		return args[0], nil
	}
	return unpackBody(nil, stored)
}

// storeDriver opens the store's connections; it gives each one unpack_body, for the
// statements that read a body in SQL.
var storeDriver = func() *sqlite.Driver {
	d := &sqlite.Driver{}
	if err := d.RegisterDeterministicScalarFunction("unpack_body", 1, unpackBodySQL); err != nil {
		panic(err) // only a second registration of the same name fails
	}
	return d
}()
