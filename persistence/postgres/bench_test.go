package postgres

import (
	"fmt"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// BenchmarkCommitLatency is the time from recording a user message to its commit being
// visible (Sync), one at a time: the writer's window plus one transaction on the server.
func BenchmarkCommitLatency(b *testing.B) {
	s := benchSession(b)
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.AppendUserMessage(fmt.Appendf(nil, `"message %d"`, i)); err != nil {
			b.Fatal(err)
		}
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkThroughput records messages as fast as the caller can and flushes at the end:
// the writer's group commits set the pace.
func BenchmarkThroughput(b *testing.B) {
	s := benchSession(b)
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.AppendUserMessage(fmt.Appendf(nil, `"message %d, long enough to look like a prompt someone typed"`, i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		b.Fatal(err)
	}
}

func benchSession(b *testing.B) *session.Session {
	m := session.NewManager(openAt(b, freshURL(b)))
	s, err := m.Create(session.CreateOptions{Title: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkVisibleElsewhere is the time from recording a user message, without waiting for
// anything, until another store on the same schema (another host) reads it: the durability
// bound over a network, which SQLite keeps within 50 ms.
func BenchmarkVisibleElsewhere(b *testing.B) {
	url := freshURL(b)
	m := session.NewManager(openAt(b, url))
	s, err := m.Create(session.CreateOptions{Title: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		b.Fatal(err)
	}
	other := openAt(b, url)
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.AppendUserMessage(fmt.Appendf(nil, `"message %d"`, i)); err != nil {
			b.Fatal(err)
		}
		for {
			st, err := other.LoadSession(s.ID())
			if err != nil {
				b.Fatal(err)
			}
			if st.NextSeq == int64(i+1) {
				break
			}
		}
	}
}
