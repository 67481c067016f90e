package bodycodec

import (
	"encoding/binary"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// An imported record's body is stored packed with one of the dictionaries of
// dictionaries.go, for size: an import writes a store once and reads it far less often
// than a live session's, whose bodies keep s2 without a dictionary (Pack). Over
// zstdAbove it is packed with zstd (github.com/klauspost/compress): a body that starts with
// DictMarker, a byte no JSON text starts with, then one zstd frame whose header names its
// dictionary. Smaller ones are packed with s2 and the same dictionary: DictS2Marker, the
// dictionary's id (a uvarint), one s2 block. Unpack sends both here.

// DictMarker starts a body packed with zstd and a dictionary. The frame keeps zstd's
// checksum (4 bytes a body), so damage reads as damage rather than as other text.
const DictMarker = 0x01

// DictS2Marker starts a body packed with s2 and a dictionary. s2 blocks carry no
// checksum: like PackedMarker's, damage that still decodes goes unseen.
const DictS2Marker = 0x02

// importDict is the dictionary an import packs with now (dictionaries.go).
const importDict = 1

// zstdAbove is the size over which an imported body is packed with zstd rather than s2.
// zstd's frame costs a fixed CPU time (its encoder copies the dictionary's 256 KB hash
// table for each), which the many small bodies and columns of an import paid most of for
// little: importing the real transcripts took 42 % more CPU than with s2 alone when zstd
// packed every value, 19 % with zstd over 1 KB and s2 under, for 16 KB more of store
// (3.01 against 2.99 MB; bench/README.md, issue 16 round 7).
const zstdAbove = 1024

// s2Dicts are dictionaries for s2, made from dictionaries on first use.
var s2Dicts = sync.OnceValue(func() map[uint32]*s2.Dict {
	m := make(map[uint32]*s2.Dict, len(dictionaries))
	for id, content := range dictionaries {
		m[id] = s2.MakeDictManual([]byte(content), 0)
	}
	return m
})

// dictCodec holds the zstd encoder and decoder, made on first use (an open store that reads
// or imports none of these bodies pays no memory for them) and shared: zstd's EncodeAll and
// DecodeAll are safe for concurrent use.
var dictCodec struct {
	encOnce, decOnce sync.Once
	enc              *zstd.Encoder
	dec              *zstd.Decoder
}

// dictEncoder returns the shared encoder, with importDict.
func dictEncoder() *zstd.Encoder {
	dictCodec.encOnce.Do(func() {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1), zstd.WithEncoderDictRaw(importDict, []byte(dictionaries[importDict])))
		if err != nil {
			panic(err) // only bad options fail, and these are fixed
		}
		dictCodec.enc = enc
	})
	return dictCodec.enc
}

// dictDecoder returns the shared decoder, which knows every dictionary a body may name.
func dictDecoder() *zstd.Decoder {
	dictCodec.decOnce.Do(func() {
		opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxMemory(maxBodyLen)}
		for id, content := range dictionaries {
			opts = append(opts, zstd.WithDecoderDictRaw(id, []byte(content)))
		}
		dec, err := zstd.NewReader(nil, opts...)
		if err != nil {
			panic(err) // only bad options fail, and these are fixed
		}
		dictCodec.dec = dec
	})
	return dictCodec.dec
}

// IsDictPacked reports whether a stored value is packed with a dictionary (DictMarker or
// DictS2Marker).
func IsDictPacked(stored []byte) bool {
	return len(stored) > 0 && (stored[0] == DictMarker || stored[0] == DictS2Marker)
}

// PackImported is Pack for an imported record's body: with importDict, by zstd
// over zstdAbove and by s2 under it, in dst's storage when it is large enough, or body
// itself when that is not smaller.
func PackImported(dst, body []byte) []byte {
	var packed []byte
	if len(body) > zstdAbove {
		packed = dictEncoder().EncodeAll(body, append(dst[:0], DictMarker))
	} else {
		head := binary.AppendUvarint(append(dst[:0], DictS2Marker), importDict)
		need := len(head) + s2.MaxEncodedLen(len(body))
		if cap(head) < need {
			head = append(make([]byte, 0, need), head...)
		}
		packed = head[:len(head)+len(s2Dicts()[importDict].Encode(head[len(head):need], body))]
	}
	if len(packed) >= len(body) {
		return body
	}
	return packed
}

// unpackDict is Unpack for a body that starts with DictMarker or DictS2Marker. A
// damaged frame or block, one naming a dictionary this build does not have, or none at
// all (no body packs to nothing) is ErrBadBody.
func unpackDict(dst, stored []byte) ([]byte, error) {
	var body []byte
	var err error
	if stored[0] == DictMarker {
		body, err = dictDecoder().DecodeAll(stored[1:], dst[:0])
	} else {
		body, err = unpackDictS2(dst, stored[1:])
	}
	if err != nil || len(body) == 0 {
		return nil, ErrBadBody
	}
	return body, nil
}

// unpackDictS2 unpacks what follows DictS2Marker: a dictionary id and an s2 block.
func unpackDictS2(dst, packed []byte) ([]byte, error) {
	id, n := binary.Uvarint(packed)
	dict := s2Dicts()[uint32(id)]
	if n <= 0 || id > 1<<32-1 || dict == nil {
		return nil, ErrBadBody
	}
	if size, err := s2.DecodedLen(packed[n:]); err != nil || size > maxBodyLen {
		return nil, ErrBadBody // a damaged length must not make us allocate gigabytes
	}
	return dict.Decode(dst[:cap(dst)], packed[n:])
}
