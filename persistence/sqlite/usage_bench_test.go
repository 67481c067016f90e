package sqlite

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// BenchmarkUsageSums measures what session computes over the store's primitive reads, on
// a store of 1,000 sessions and 20,000 messages in 10 projects: usage stats over every
// message (ScanUsage), one session's details, and counting a project's sessions
// (ListSessions), and resolving an id prefix (FindSessions): the figures that decide
// whether a sum belongs in the backend. Measured when the sums moved out of SQL (2 loaded
// cores): stats 37 ms in SQL and 40 ms in Go, details 0.1 ms both, the project count
// 0.2 ms in SQL and 2 ms in Go, which MoveProject pays once before it rewrites those
// sessions anyway. Resolving a prefix through the id index takes 0.02 ms where listing
// every id to search them in Go takes 1.9 ms, and every management call resolves one, so
// FindSessions stays a backend method.
func BenchmarkUsageSums(b *testing.B) {
	st, err := Open(filepath.Join(b.TempDir(), "sessions.db"))
	if err != nil {
		b.Fatal(err)
	}
	m := session.NewManager(st)
	defer m.Close()
	var last string
	for i := range 1000 {
		last = fillUsageSession(b, m, fmt.Sprintf("/projects/p%d", i%10), i)
	}
	if err := st.Sync(); err != nil {
		b.Fatal(err)
	}
	b.Run("stats", func(b *testing.B) {
		for b.Loop() {
			if _, err := catalog.Stats(m, catalog.StatsFilter{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("details", func(b *testing.B) {
		for b.Loop() {
			if _, err := catalog.Details(m, last, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("resolvePrefix", func(b *testing.B) {
		for b.Loop() {
			if _, err := catalog.Resolve(m, last[:len(last)-1]); err != nil {
				b.Fatal(err)
			}
		}
	})
	// What FindSessions would cost computed in session, from the ids of every session.
	b.Run("listAllIDs", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.ListSessions(catalog.ListFilter{IncludeArchived: true, Want: session.InfoID}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("countProject", func(b *testing.B) {
		for b.Loop() {
			// No session is in /elsewhere, so nothing moves and each round only counts.
			if _, err := catalog.MoveProject(m, "/elsewhere", "/projects/moved"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// fillUsageSession records a session of 10 prompts, each answered by one of three models
// with its usage, and returns its id.
func fillUsageSession(b *testing.B, m *session.Manager, project string, n int) string {
	s, err := m.Create(session.CreateOptions{ProjectPath: project, Provider: "anthropic", Model: "claude-session"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for t := range 10 {
		if _, err := s.AppendUserMessage([]byte(`"go on with the next step"`)); err != nil {
			b.Fatal(err)
		}
		usage := fmt.Sprintf(`{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d}`, 100+t, 20+n%7, 1000*t)
		for _, c := range []stream.Chunk{
			{Kind: stream.ChunkMessageStart, ID: fmt.Sprintf("m%d", t), Model: fmt.Sprintf("claude-%d", (n+t)%3)},
			{Kind: stream.ChunkText, Text: "Done, the next step is in place."},
			{Kind: stream.ChunkDone, StopReason: "end_turn", Usage: []byte(usage)},
		} {
			if err := s.Ingest(c); err != nil {
				b.Fatal(err)
			}
		}
	}
	return s.ID()
}
