package tokens

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
)

// o200kVocab is the o200k_base vocabulary, token by token in rank order: each token's
// length as a uvarint, then its bytes (length 0 for a rank with no token), gzipped.
// Embedded bytes are plain read-only data that the loader neither relocates nor reads
// until they are used; tiktoken-go's own vocabulary is a Go map literal whose 200,000
// string headers cost about 10 MB of resident memory at load, counted or not.
//
//go:generate go run ./internal/vocabgen o200k_base.vocab.gz
//go:embed o200k_base.vocab.gz
var o200kVocab []byte

// o200kTokens is the number of ranks in o200kVocab.
const o200kTokens = 199998

var (
	ranksOnce sync.Once
	ranks     map[string]uint32 // token → rank, built on the first count
)

// rankOf returns the rank of token in o200k_base, and whether it is one.
func rankOf(token string) (uint32, bool) {
	ranksOnce.Do(func() {
		var err error
		if ranks, err = readVocab(o200kVocab); err != nil {
			panic(err) // the embedded file is part of the build: a test reads it
		}
	})
	r, ok := ranks[token]
	return r, ok
}

// readVocab decodes a vocabulary written as o200kVocab is.
func readVocab(gz []byte) (map[string]uint32, error) {
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("tokens: the vocabulary: %w", err)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("tokens: the vocabulary: %w", err)
	}
	all := string(raw) // one allocation that every token's string points into
	m := make(map[string]uint32, o200kTokens)
	for rank, at := uint32(0), 0; at < len(all); rank++ {
		n, size := binary.Uvarint(raw[at:])
		if size <= 0 || at+size+int(n) > len(all) {
			return nil, fmt.Errorf("tokens: the vocabulary is damaged at rank %d", rank)
		}
		at += size
		if n > 0 {
			m[all[at:at+int(n)]] = rank
		}
		at += int(n)
	}
	return m, nil
}
