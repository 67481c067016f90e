package session

// record queues op for the store, or keeps it with the Ops of the call gathering them.
// The session is locked.
//
// A step of the stream writes several Ops (a tool result begins its message and puts its
// block), and the store's writer commits whatever is queued when its window ends, so Ops
// queued one by one could be committed apart: a reader in another process would see, for a
// moment, a tool result message with no block after the call it answers. Queued together,
// they are committed together.
func (s *Session) record(op Op) {
	if s.gathering {
		s.gathered = append(s.gathered, op)
		return
	}
	s.mgr.store.Apply(op)
}

// gather makes the Ops recorded until the function it returns is called wait and be
// queued together then; the session is locked for both.
func (s *Session) gather() func() {
	s.gathering = true
	return func() {
		s.queueGathered()
		s.gathering = false
	}
}

// queueGathered queues the Ops gathered so far: at the end of the gathering call, or before
// that call reads the store. The session is locked: Ops gathered belong to the call that
// holds the lock, so a read from outside it (readable, which takes the lock to checkpoint)
// never queues them, or it would split that call's Ops and race with it.
func (s *Session) queueGathered() {
	if len(s.gathered) > 0 {
		s.mgr.store.Apply(s.gathered...)
	}
	s.gathered = nil
}
