package sqlite

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// TestScanUsageSelectsByFilter holds ScanUsage to its filter: one session, one project,
// a time range, and only the messages with usage; each record carries the model its meta
// names and its session's model.
func TestScanUsageSelectsByFilter(t *testing.T) {
	before := time.Now()
	s, _ := openTemp(t)
	m := session.NewManager(s)
	a := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p1", Model: "claude-a"})
	b := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p2"})
	for _, sess := range []*session.Session{a, b} {
		if _, err := sess.AppendUserMessage([]byte(`"hello"`)); err != nil {
			t.Fatal(err)
		}
		for _, c := range []stream.Chunk{
			{Kind: stream.ChunkMessageStart, ID: "m1", Model: "claude-named"},
			{Kind: stream.ChunkText, Text: "hi"},
			{Kind: stream.ChunkDone, StopReason: "end_turn", Usage: []byte(`{"input_tokens":10,"output_tokens":3}`)},
		} {
			if err := sess.Ingest(c); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	collect := func(f catalog.UsageFilter) []catalog.UsageRecord {
		t.Helper()
		var out []catalog.UsageRecord
		if err := s.ScanUsage(f, func(r *catalog.UsageRecord) error { out = append(out, *r); return nil }); err != nil {
			t.Fatalf("ScanUsage(%+v): %v", f, err)
		}
		return out
	}

	all := collect(catalog.UsageFilter{SessionID: a.ID()})
	if len(all) != 2 || all[0].Type != session.TypeUser || all[0].Usage != (session.Usage{}) || all[1].Type != session.TypeAssistant {
		t.Fatalf("session a = %+v, want its prompt and its answer", all)
	}
	if r := all[1]; r.Model != "claude-named" || r.SessionModel != "claude-a" || r.InputTokens != 10 || r.OutputTokens != 3 || r.CreatedAt.Before(before.Truncate(time.Millisecond)) {
		t.Errorf("a's answer = %+v", r)
	}
	if got := collect(catalog.UsageFilter{WithUsage: true}); len(got) != 2 || got[0].Type != session.TypeAssistant || got[1].Type != session.TypeAssistant {
		t.Errorf("WithUsage = %+v, want the two answers", got)
	}
	if got := collect(catalog.UsageFilter{ProjectPath: "/p2"}); len(got) != 2 || got[0].SessionModel != "" {
		t.Errorf("project /p2 = %+v, want b's two messages", got)
	}
	if got := collect(catalog.UsageFilter{Until: before.Add(-time.Second)}); len(got) != 0 {
		t.Errorf("until before the messages = %+v, want none", got)
	}
	if got := collect(catalog.UsageFilter{Since: before.Add(-time.Second), Until: time.Now().Add(time.Second)}); len(got) != 4 {
		t.Errorf("since..until around the messages = %d records, want 4", len(got))
	}
	if got := collect(catalog.UsageFilter{SessionID: "no-such-session"}); len(got) != 0 {
		t.Errorf("an unknown session = %+v, want none", got)
	}
}

// TestScanUsageReadsTheCacheWriteKeptAnHour: the 1-hour part of a cache write, which has
// no column, is read with the model from the usage object the message's meta keeps, in the
// body (the usual case) or in the meta column (kept when the body would escape it: a
// non-ASCII model here), also under an adapter's usage.raw.
func TestScanUsageReadsTheCacheWriteKeptAnHour(t *testing.T) {
	s, _ := openTemp(t)
	sess := mustCreate(t, session.NewManager(s), session.CreateOptions{Model: "claude-a"})
	answers := []struct{ model, usage string }{
		{"claude-body", `{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":300,"cache_creation":{"ephemeral_5m_input_tokens":100,"ephemeral_1h_input_tokens":200}}`},
		{"claude-none", `{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":300}`},
		{"claude-é", `{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":300,"cache_creation":{"ephemeral_1h_input_tokens":50}}`},
		{"claude-raw", `{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":300,"raw":{"cache_creation":{"ephemeral_1h_input_tokens":70}}}`},
	}
	for i, a := range answers {
		if _, err := sess.AppendUserMessage([]byte(`"hello"`)); err != nil {
			t.Fatal(err)
		}
		for _, c := range []stream.Chunk{
			{Kind: stream.ChunkMessageStart, ID: fmt.Sprintf("m%d", i), Model: a.model},
			{Kind: stream.ChunkText, Text: "hi"},
			{Kind: stream.ChunkDone, StopReason: "end_turn", Usage: []byte(a.usage)},
		} {
			if err := sess.Ingest(c); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	err := s.ScanUsage(catalog.UsageFilter{SessionID: sess.ID(), WithUsage: true}, func(r *catalog.UsageRecord) error {
		if r.CacheCreationInputTokens != 300 {
			t.Errorf("cache write = %d, want 300", r.CacheCreationInputTokens)
		}
		got[r.Model] = r.CacheCreation1hInputTokens
		return nil
	})
	if want := map[string]int64{"claude-body": 200, "claude-none": 0, "claude-é": 50, "claude-raw": 70}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("1-hour parts by model = %v, %v; want %v", got, err, want)
	}
}
