package commitqueue

// Lock takes the Queue's lock, for what a backend keeps beside the queue and waits for with
// it; the methods that read the queue's state under it (Queued, Committed, Err, Stopped,
// Closing, Status) need it held.
func (q *Queue) Lock() { q.mu.Lock() }

// Unlock lets the Queue's lock go.
func (q *Queue) Unlock() { q.mu.Unlock() }

// Wait waits, with the lock held, for the queue's state, or what a backend keeps beside
// it, to change (Broadcast).
func (q *Queue) Wait() { q.changed.Wait() }

// Broadcast wakes every caller in Wait.
func (q *Queue) Broadcast() { q.changed.Broadcast() }

// Queued is how many Ops were queued since the store opened (lock held).
func (q *Queue) Queued() uint64 { return q.queued }

// Committed is how many of the Ops queued are committed (lock held).
func (q *Queue) Committed() uint64 { return q.committed }

// Err is why the last batch failed, once callers are told; nil after a commit (lock held).
func (q *Queue) Err() error { return q.err }

// Stopped reports whether the writer has stopped (lock held).
func (q *Queue) Stopped() bool { return q.stopped }

// Closing reports whether Close was called (lock held).
func (q *Queue) Closing() bool { return q.closing }
