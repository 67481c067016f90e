package codex

import (
	"bytes"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// BenchmarkReadRealRollouts reads the real Codex rollouts: the Codex share of
// persistence/interop's BenchmarkParseReal, for the converter's CPU and allocations.
func BenchmarkReadRealRollouts(b *testing.B) {
	files := fixtures.Files("codex")
	if len(files) == 0 {
		b.Skip("the real fixtures are not beside the repository")
	}
	var size int64
	for _, f := range files {
		size += int64(len(f))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			file, err := Read(bytes.NewReader(f), "rollout-bench.jsonl", nil)
			if err != nil || len(file.Records) == 0 {
				b.Fatalf("Read: %v, %d records", err, len(file.Records))
			}
		}
	}
}

// BenchmarkSourceOfRealLines writes the source of every line of the real rollouts, as
// record does (members) and as it did before (map: referenceSource).
func BenchmarkSourceOfRealLines(b *testing.B) {
	type input struct {
		text, payload []byte
		mapped        *[]string
	}
	var inputs []input
	var size int64
	for _, text := range fixtures.Lines("codex") {
		var l line
		if json.Unmarshal(text, &l) != nil || l.Type == "" {
			continue
		}
		in := input{text: text, payload: l.Payload}
		if l.Type == "response_item" {
			in.mapped, _ = (&converter{}).responseItem(l.Payload, &importing.Record{}, &session.EnvelopeExtra{})
		}
		inputs = append(inputs, in)
		size += int64(len(text))
	}
	if len(inputs) == 0 {
		b.Skip("the real fixtures are not beside the repository")
	}
	b.Run("members", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, in := range inputs {
				members, plain := plainMembers(in.text)
				if _, err := recordSource(in.text, members, plain, in.payload, in.mapped); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, in := range inputs {
				if _, err := referenceSource(in.text, in.payload, in.mapped); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
