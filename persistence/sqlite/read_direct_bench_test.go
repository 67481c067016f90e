package sqlite

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// BenchmarkAppendListing1000 is W4 in Go: the listing of 1,000 sessions, the four fields
// the harness lists, encoded as the bridge encodes it.
func BenchmarkAppendListing1000(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "sessions.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	m := session.NewManager(s)
	for i := range 1000 {
		ses, err := m.Create(session.CreateOptions{ProjectPath: "/bench", Title: fmt.Sprintf("write a function that does task number %d of the benchmark", i)})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ses.AppendUserMessage([]byte(`"hello"`)); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		b.Fatal(err)
	}
	filter := catalog.ListFilter{Fields: []string{"id", "title", "messageCount", "updatedAt"}}
	var buf []byte
	b.ResetTimer()
	for range b.N {
		var err error
		if buf, err = catalog.AppendList(m, filter, buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}
