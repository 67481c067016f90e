package interop

import (
	"os"
	"testing"
)

// BenchmarkParseReal parses the real transcripts as an import's parsers do, one after
// the other and with no store: the parsing share of BenchmarkImportReal, for its CPU and
// allocation profiles.
func BenchmarkParseReal(b *testing.B) {
	const fixtures = "../../../shared/fixtures/real"
	if _, err := os.Stat(fixtures); err != nil {
		b.Skipf("the real fixtures are not beside the repository: %v", err)
	}
	files, err := findFiles(fixtures, "")
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range files {
		size += f.size
		for _, sub := range f.subagents {
			size += sub.size
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	run := &importRun{}
	for b.Loop() {
		records := 0
		for _, f := range files {
			u := unit{newParsedFile(f)}
			for _, sub := range f.subagents {
				u = append(u, newParsedFile(sub))
			}
			run.parseUnit(u)
			for _, pf := range u {
				if pf.skip != "" || pf.panicked != nil {
					b.Fatalf("%s: %v %v", pf.src.path, pf.skip, pf.panicked)
				}
				records += len(pf.file.Records)
			}
		}
		if records == 0 {
			b.Fatal("no records parsed")
		}
	}
}
