package postgres

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestHostsAccessingEachOthersSessionsNeverDeadlock has three hosts (stores on one
// database) each append to sessions of its own while recording accesses to every session
// of all three, in a shuffled order per round, as hosts serving each other's sessions do
// (test 126). Each batch locks its sessions' rows in the order of their keys, so no batch
// is ever a deadlock's victim: the writers' silent retries count none, and every flush
// succeeds. With the rows locked in the order of the Ops instead (lockSessions skipped),
// three runs retried 14, 30 and 20 batches (the server detects a deadlock after
// deadlock_timeout, 20 ms here) and failed; with the locks taken first but not sorted, two
// runs retried 9 and 4.
func TestHostsAccessingEachOthersSessionsNeverDeadlock(t *testing.T) {
	url := withParam(t, freshURL(t), "deadlock_timeout", "20ms")
	const hosts, perHost, rounds = 3, 6, 60
	stores := make([]*Store, hosts)
	own := make([][]*session.Session, hosts)
	var ids []string
	for h := range stores {
		stores[h] = openAt(t, url)
		m := session.NewManager(stores[h])
		for range perHost {
			s := newSession(t, m)
			own[h] = append(own[h], s)
			ids = append(ids, s.ID())
		}
		if err := stores[h].Flush(); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	failures := make(chan error, hosts*rounds)
	for h, store := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range rounds {
				if _, err := own[h][round%perHost].AppendUserMessage([]byte(`"a turn"`)); err != nil {
					failures <- err
					return
				}
				order := rand.Perm(len(ids))
				accesses := make([]session.Op, len(order))
				for i, j := range order {
					accesses[i] = session.AccessSession{SessionID: ids[j], At: time.Now()}
				}
				store.Apply(accesses...)
				if round%4 == 3 {
					if err := store.Flush(); err != nil {
						failures <- err
					}
				}
			}
			if err := store.Flush(); err != nil {
				failures <- err
			}
		}()
	}
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Errorf("a host's flush: %v", err)
	}
	for h, store := range stores {
		if n := store.w.busyRetried.Load(); n != 0 {
			t.Errorf("host %d retried %d batches as a deadlock's victim, want 0", h, n)
		}
	}
	assertAllWritten(t, url, hosts*perHost, hosts*rounds)
}

// assertAllWritten checks that the store at url holds the sessions and messages the hosts
// wrote, and that every session's access was recorded.
func assertAllWritten(t *testing.T, url string, sessions, messages int) {
	t.Helper()
	var n, stored, accessed int
	err := connectAt(t, url).QueryRow(context.Background(), `SELECT count(*), sum(message_count), count(*) FILTER (WHERE last_accessed_at > created_at) FROM sessions`).
		Scan(&n, &stored, &accessed)
	if err != nil {
		t.Fatal(err)
	}
	if n != sessions || stored != messages || accessed != sessions {
		t.Errorf("stored %d sessions, %d messages, %d accessed; want %d, %d, %d", n, stored, accessed, sessions, messages, sessions)
	}
}

// TestEveryOpOnASessionNamesItsLock checks which session each kind of Op has its batch
// lock: every Op on an existing session, by its SessionOf or its SessionID field (not a
// hosted agent's SDKSessionID); none for an Op that creates its session or names none.
func TestEveryOpOnASessionNamesItsLock(t *testing.T) {
	const id = "s1"
	for _, op := range []session.Op{
		session.PutBlock{SessionID: id}, session.SetTracker{SessionID: id}, session.AccessSession{SessionID: id},
		session.CloseSession{SessionID: id}, session.RenameSession{SessionID: id}, session.SetArchived{SessionID: id},
		session.MarkCorrupted{SessionID: id}, session.DeleteSession{SessionID: id}, session.SetCheckpoint{SessionID: id},
		session.SetSDKSession{SessionID: id, SDKSessionID: "sdk"}, session.AddHistory{SessionID: id}, session.ClearHistory{SessionID: id},
	} {
		if got := sessionWritten(op); got != id {
			t.Errorf("%T locks %q, want %q", op, got, id)
		}
	}
	for _, op := range []session.Op{session.CreateSession{}, session.MoveProject{From: "/a", To: "/b"}} {
		if got := sessionWritten(op); got != "" {
			t.Errorf("%T locks %q, want none", op, got)
		}
	}
}
