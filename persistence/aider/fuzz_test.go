package aider

import (
	"bytes"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
)

// FuzzRead reads random histories: reading never fails on content, and every run it reads
// imports.
func FuzzRead(f *testing.F) {
	f.Add([]byte(history))
	m := importcheck.Store(f)
	f.Fuzz(func(t *testing.T, text []byte) {
		files, err := Read(bytes.NewReader(text), "fuzz/"+FileName, nil)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		for _, file := range files {
			importcheck.Import(t, m, file)
		}
	})
}
