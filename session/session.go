package session

import (
	"sync"
	"time"

	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// CheckpointInterval is how long text of a block still streaming may wait before it is
// queued as a partial checkpoint; with the store's commit delay it bounds what a crash
// can lose.
const CheckpointInterval = 20 * time.Millisecond

// Session is one live conversation: its assembler turns streamed chunks into records,
// which the Session hands to the store. It is safe for use from several goroutines;
// JavaScript calls it from one thread, the checkpoint timer from another.
type Session struct {
	mgr *Manager // set once: the store, clock, redactor and token counter
	id  string

	// mu guards every field below it: each method takes it (lock) for as long as it uses
	// them, and the assembler and the chain are only ever called with it held.
	mu       sync.Mutex
	refs     int  // the users that opened the session and did not close it yet
	closed   bool // shut down: every call fails with ErrStoreClosed
	accessed bool // opened or created for use, not only imported into or exported
	keyed    bool // addressed by a hosted agent's key: leaving it open at exit interrupts it
	titled   bool

	// Where the next record goes and what writes it.
	chain chain
	asm   *assembler

	// What the session keeps beside its records, and the reads it remembers.
	tracker    TokenTracker
	branch     *branchMemo // the branch last worked out, for reads until the next write
	hosted     HostedState
	seenSeq    int64 // the first message a hosted agent has not seen
	lastReport any   // of the last context built, for DebugContext (package contextbuild's)

	// The step under way and the timer: gathering is set during a call that records a
	// whole step (Ingest, AddUserMessage), whose Ops are kept in gathered and queued together
	// at its end (see record); checkpointArmed while a checkpoint of the block streaming
	// is due (armCheckpoint).
	gathering       bool
	gathered        []Op
	checkpointArmed bool
}

func newSession(m *Manager, st SessionState) *Session {
	s := &Session{
		mgr:     m,
		id:      st.Info.ID,
		refs:    1,
		keyed:   st.Info.Key != "",
		titled:  st.Info.Title != "",
		chain:   newChain(st),
		tracker: st.Tracker,
		hosted:  HostedState{Checkpoint: st.Info.Checkpoint, SDKSessionID: st.Info.SDKSession},
		seenSeq: st.Info.SeenSeq,
	}
	s.asm = newAssembler(s, &s.chain, st.Info.ID, st.Info.Provider)
	return s
}

// ID returns the session's id.
func (s *Session) ID() string { return s.id }

// lock takes the session's lock, failing when the session is closed.
func (s *Session) lock() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrStoreClosed
	}
	return nil
}

// TokenTracker returns the session's token accounting.
func (s *Session) TokenTracker() (TokenTracker, error) {
	if err := s.lock(); err != nil {
		return TokenTracker{}, err
	}
	defer s.mu.Unlock()
	return s.tracker, nil
}

// RestoreTokenTracker replaces the session's token accounting with t.
func (s *Session) RestoreTokenTracker(t TokenTracker) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.tracker = t
	s.mgr.store.Apply(SetTracker{SessionID: s.id, Tracker: t})
	return nil
}

// Messages returns the session's messages as one JSON array: those of the branch that ends
// at the head (see branches.Rewind). With withEnvelope it is every record with its envelope,
// sidechains and records that are not messages included; without, it is the main
// conversation as the model is given it (see conversation). A block still streaming is
// included as far as it has come. The session is not locked while the store reads, so
// ingest goes on during an async read.
func (s *Session) Messages(withEnvelope bool) ([]byte, error) {
	var all []byte
	err := s.EncodeParts(withEnvelope, -1, Whole, nil, func(part []byte) ([]byte, error) {
		all = part
		return nil, nil
	})
	return all, err
}

// EncodeParts encodes the session like Messages, with its envelopes the last n records of
// the branch (all when n < 0; without them n is not used and the conversation is whole),
// as JSON arrays of whole messages, ASCII only (see jsonenc.AppendASCII), each emitted once
// it holds size.Flush bytes and never past size.Max but for a message larger alone. The
// first is encoded into buf (nil for a new buffer): a caller that copies parts out can hand
// the same buffer to every read, so a short read grows and frees none. It hands each array
// to emit, which returns the buffer to encode the next one into (nil for a new one; never
// the part it was handed). There is always at least one, empty when there are no messages.
func (s *Session) EncodeParts(withEnvelope bool, n int, size PartSize, buf []byte, emit func(part []byte) ([]byte, error)) error {
	if err := s.recordsReadable(); err != nil {
		return err
	}
	p := NewPartWriter(buf, size, emit)
	var err error
	if withEnvelope {
		var scratch []byte
		err = s.scanBranchEncoded(n, func(m *StoredMessage) error {
			p.begin()
			p.buf, scratch = appendStored(p.buf, scratch, m)
			return p.ended()
		})
	} else {
		err = s.encodeConversation(p)
	}
	if err = s.markIfCorrupt(err); err != nil {
		return err
	}
	return p.Finish()
}

// appendStored appends m with its envelope to buf as ASCII JSON, encoding it in scratch
// first unless the store kept it encoded; it returns both buffers for reuse.
func appendStored(buf, scratch []byte, m *StoredMessage) ([]byte, []byte) {
	if m.Encoded != nil {
		return AppendEncoded(buf, m, true), scratch
	}
	scratch = AppendEnvelope(scratch[:0], m)
	return jsonenc.AppendASCII(buf, scratch), scratch
}

// Turns returns the session's turns: those of the branch that ends at the head.
func (s *Session) Turns() ([]Turn, error) {
	if err := s.readable(); err != nil {
		return nil, err
	}
	t, on, err := s.currentBranch()
	switch {
	case err != nil:
		return nil, err
	case t == nil:
		return s.mgr.store.Turns(s.id)
	}
	return t.turns(on), nil
}

// readable checkpoints the block streaming, if any, and waits until everything recorded
// so far can be read from the store.
func (s *Session) readable() error {
	if err := s.checkpointNow(); err != nil {
		return err
	}
	return s.mgr.store.Sync()
}

// endToolResults ends an open message of tool results as complete, so that a context built
// for the next model call holds them: the builder reads ended messages only, and an agent
// builds its next call right after its tools answered, before anything else ends the message.
func (s *Session) endToolResults() error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.asm.endToolResults()
	return nil
}

// checkpointNow queues the block streaming, if any, as far as it has come.
func (s *Session) checkpointNow() error {
	if err := s.lock(); err != nil {
		return err
	}
	s.asm.checkpoint()
	s.mu.Unlock()
	return nil
}

// Flush waits until everything recorded so far, a block still streaming included, is
// durable on disk.
func (s *Session) Flush() error {
	if err := s.checkpointNow(); err != nil {
		return err
	}
	return s.mgr.store.Flush()
}

// Close releases the session. When the last user has closed it, an unfinished reply is
// ended as interrupted (open tool results as complete), and later calls fail with
// ErrStoreClosed.
func (s *Session) Close() { s.mgr.release(s) }

// shutdown ends an unfinished reply as interrupted and open tool results as complete, records that this process let go
// of the session, and closes it for good. atExit says the whole store is closing with the
// session still open: a hosted agent's session is then interrupted, like a disconnect.
func (s *Session) shutdown(atExit bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	cut := s.asm.replying()
	s.asm.endOpen(true) // tool results stand: only a reply is cut off
	s.closed = true
	var at time.Time // a session only imported into or exported was not accessed
	if s.accessed {
		at = s.mgr.now().UTC()
	}
	s.mgr.store.Apply(CloseSession{SessionID: s.id, At: at, Interrupted: cut || (atExit && s.keyed)})
}

// armCheckpoint makes sure the block now streaming is checkpointed within
// CheckpointInterval, however long the stream then stalls.
func (s *Session) armCheckpoint() {
	if s.checkpointArmed {
		return
	}
	s.checkpointArmed = true
	time.AfterFunc(CheckpointInterval, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.checkpointArmed = false
		if !s.closed {
			s.asm.checkpoint()
		}
	})
}

// now is the clock that stamps the session's records.
func (s *Session) now() time.Time { return s.mgr.now() }

// countTokens has the message's tokens counted off this thread and stored with it.
func (s *Session) countTokens(m EndedMessage) {
	if s.mgr.counter != nil {
		s.mgr.counter.Add(m)
	}
}

// addUsage adds one request's usage to the token tracker and records the tracker.
func (s *Session) addUsage(u Usage) {
	s.tracker.Add(u)
	s.record(SetTracker{SessionID: s.id, Tracker: s.tracker})
}
