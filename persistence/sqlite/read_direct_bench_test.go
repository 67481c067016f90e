package sqlite

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// BenchmarkAppendListing1000 is W4 in Go: the listing of 1,000 sessions, the four fields
// the harness lists, encoded as the bridge encodes it (in parts, each buffer reused).
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
	size := 0
	emit := func(part []byte) ([]byte, error) {
		size += len(part)
		return part[:0], nil
	}
	b.ResetTimer()
	for range b.N {
		size = 0
		if err := catalog.EncodeListValues(m, filter, listingPartSize, nil, emit); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(size))
}

// listingPartSize is the bridge's part size for listings (bridge/read.go's partSize).
var listingPartSize = session.PartSize{Flush: 127 << 10, Max: 127 << 10}

// BenchmarkScanEncoded is W3 and W2 in Go: the last 20, and all, of a session of 20,000
// messages of about 500 bytes, read as encoded bodies.
func BenchmarkScanEncoded(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "sessions.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ses, err := session.NewManager(s).Create(session.CreateOptions{ProjectPath: "/bench"})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 20000 {
		text := fmt.Sprintf(`"message %d: %s"`, i, strings.Repeat("lorem ipsum dolor sit amet ", 18))
		if _, err := ses.AppendUserMessage([]byte(text)); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		from int64
	}{{"tail20", 19980}, {"all", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			size := 0
			for range b.N {
				size = 0
				err := s.ScanEncoded(ses.ID(), bc.from, func(m *session.StoredMessage) error {
					for _, p := range m.Encoded {
						size += len(p)
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(size))
		})
	}
}
