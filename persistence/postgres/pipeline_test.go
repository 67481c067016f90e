package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/session"
)

// roundTrips counts what a connection sends: each statement run on its own and each
// pipeline is one round trip; commits counts the pipelines' COMMITs and the COMMITs run
// on their own.
type roundTrips struct {
	mu             sync.Mutex
	trips, commits int
}

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.trips++
	if data.SQL == "commit" || data.SQL == `COMMIT` {
		r.commits++
	}
	return ctx
}

func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.trips++
	return ctx
}

func (r *roundTrips) TraceBatchQuery(_ context.Context, _ *pgx.Conn, data pgx.TraceBatchQueryData) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if data.SQL == `COMMIT` {
		r.commits++
	}
}

func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// counts returns the round trips and the commits so far, and starts counting again.
func (r *roundTrips) counts() (trips, commits int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	trips, commits = r.trips, r.commits
	r.trips, r.commits = 0, 0
	return trips, commits
}

// TestATurnCommitsInTwoRoundTrips traces the writer's connection while a session takes
// messages, each flushed: a commit is two round trips, the BEGIN sent with its first
// statements and the COMMIT with the listing's update (four before: BEGIN and COMMIT each
// on its own).
func TestATurnCommitsInTwoRoundTrips(t *testing.T) {
	store := openAt(t, freshURL(t))
	trace := &roundTrips{}
	store.w.cfg.Tracer = trace
	store.w.c.Close(context.Background()) // the writer connects again, traced, at its next commit
	s := newSession(t, session.NewManager(store))
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	trace.counts()
	for i := range 10 {
		if _, err := s.AppendUserMessage(fmt.Appendf(nil, `"turn %d"`, i)); err != nil {
			t.Fatal(err)
		}
		if err := store.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	trips, commits := trace.counts()
	if commits == 0 || trips != 2*commits {
		t.Errorf("%d round trips for %d commits, want 2 each", trips, commits)
	}
}
