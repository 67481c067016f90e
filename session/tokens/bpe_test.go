package tokens

import (
	"strings"
	"testing"

	tiktoken "github.com/tiktoken-go/tokenizer/codec"
)

// TestCountsMatchTiktoken holds our o200k_base encoder to tiktoken-go's, whose vocabulary
// ours is generated from: the same count for every string of the real transcripts and for
// texts that exercise the merge (long pieces, bytes that are not UTF-8, special-token text).
func TestCountsMatchTiktoken(t *testing.T) {
	codec := tiktoken.NewO200kBase()
	texts := append(realStrings(t, 1),
		"", "a", " ", "<|endoftext|>", "don't I'LL we've", "\xff\xfe invalid \xc3",
		strings.Repeat(" ", 300), strings.Repeat("ab", 500), strings.Repeat("é", 200),
		"日本語のテキストと emoji 🎉🎉 and numbers 1234567", "aGVsbG8gd29ybGQ="+strings.Repeat("QUJDRA", 400))
	if len(texts) < 5000 {
		t.Fatalf("only %d strings in the fixtures; the check needs the real transcripts", len(texts))
	}
	var ours, theirs int64
	for _, s := range texts {
		want, _ := codec.Count(s)
		got := bpeCount(s)
		ours, theirs = ours+got, theirs+int64(want)
		if got != int64(want) {
			t.Errorf("%d tokens, tiktoken %d, for %q", got, want, s[:min(len(s), 80)])
		}
	}
	t.Logf("%d strings, %d tokens", len(texts), ours)
}

func TestVocabularyHoldsEveryRank(t *testing.T) {
	m, err := readVocab(o200kVocab)
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != o200kTokens {
		t.Errorf("%d tokens, want %d", len(m), o200kTokens)
	}
	if _, err := readVocab(o200kVocab[:len(o200kVocab)/2]); err == nil {
		t.Error("half the vocabulary read without an error")
	}
}

func BenchmarkCount(b *testing.B) {
	texts := realStrings(b, 1)
	codec := tiktoken.NewO200kBase()
	b.Run("ours", func(b *testing.B) {
		for b.Loop() {
			for _, s := range texts {
				bpeCount(s)
			}
		}
	})
	b.Run("tiktoken", func(b *testing.B) {
		for b.Loop() {
			for _, s := range texts {
				codec.Count(s)
			}
		}
	})
}
