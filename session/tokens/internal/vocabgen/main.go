// Command vocabgen writes the o200k_base vocabulary as package tokens embeds it: token by
// token in rank order, each as its length (a uvarint) and its bytes, gzipped. A rank with
// no token is written with length 0. It reads the vocabulary from tiktoken-go's codec,
// which the addon then does not link (its table of 200,000 strings costs about 10 MB of
// resident memory at load, in relocations).
//
//	go run ./internal/vocabgen o200k_base.vocab.gz
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"os"

	tiktoken "github.com/tiktoken-go/tokenizer/codec"
)

// ranks is one past the highest rank of a token of o200k_base that is not special
// (<|endoftext|> is 199999).
const ranks = 199998

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: vocabgen OUT")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "vocabgen:", err)
		os.Exit(1)
	}
}

func write(path string) error {
	codec := tiktoken.NewO200kBase()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(z)
	for rank := range uint(ranks) {
		token, err := codec.Decode([]uint{rank})
		if err != nil {
			token = "" // no token has this rank
		}
		w.Write(binary.AppendUvarint(nil, uint64(len(token))))
		w.WriteString(token)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := z.Close(); err != nil {
		return err
	}
	return f.Close()
}
