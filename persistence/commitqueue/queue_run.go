package commitqueue

import "time"

// run is the writer goroutine.
func (q *Queue) run() {
	failures := 0
	var retry time.Duration
	window := time.NewTimer(CommitWindow)
	window.Stop()
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	for {
		work := false
		if failures > 0 {
			time.Sleep(retry)
		} else {
			work = q.await(window, idle)
		}
		q.mu.Lock()
		batch, target := q.ops, q.queued
		q.ops = nil
		wantDurable, closing := q.flushTo > q.durable || q.closing, q.closing
		q.mu.Unlock()

		committed, err := q.b.Commit(batch, wantDurable, closing)
		var report error // what callers are told of err; nil while it is waited out in silence
		if err != nil {
			failures++
			report, retry = q.b.Failed(err, failures)
		}

		q.mu.Lock()
		q.attempts++
		if committed {
			q.committed = target
		} else {
			q.ops = append(batch, q.ops...)
		}
		if err != nil {
			q.fail(report)
		} else {
			failures = 0
			q.err = nil
			if wantDurable {
				q.durable = target
			}
		}
		done := closing && (err == nil || (q.err != nil && failures >= closeAttempts))
		q.stopped = done
		q.changed.Broadcast()
		q.mu.Unlock()
		if done {
			return
		}
		if work && err == nil && !closing {
			q.b.(IdleWorker).Work()
		}
	}
}

// fail makes err, unless nil, what callers waiting on the writer are told. A run of
// failures that follows a commit is new: TakeError hands it out once.
func (q *Queue) fail(err error) {
	if err == nil {
		return
	}
	if q.err == nil {
		q.errSeen = false
	}
	q.err = err
}

// await waits for Ops, then waits out the commit window. It returns true instead when the
// Backend's background work is due (IdleWorker): asked for now, or nothing arrived to
// commit for as long as it asked.
func (q *Queue) await(window, idle *time.Timer) (work bool) {
	var now bool
	var after time.Duration
	if worker, ok := q.b.(IdleWorker); ok {
		now, after = worker.Idle()
	}
	switch {
	case now:
		return true
	case after == 0:
		<-q.wake
		q.gather(window)
		return false
	}
	idle.Reset(after)
	select {
	case <-q.wake:
		idle.Stop()
		q.gather(window)
		return false
	case <-idle.C:
		return true
	}
}

// gather waits out the commit window, unless someone is waiting.
func (q *Queue) gather(t *time.Timer) {
	t.Reset(CommitWindow)
	select {
	case <-q.hurry:
		t.Stop() // since Go 1.23 a stopped timer's channel holds no stale tick
	case <-t.C:
	}
}
