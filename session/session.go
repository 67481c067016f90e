package session

import (
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// CheckpointInterval is how long text of a block still streaming may wait before it is
// queued as a partial checkpoint; with the store's commit delay it bounds what a crash
// can lose.
const CheckpointInterval = 20 * time.Millisecond

// Session is one live conversation: it assembles streamed chunks into messages and hands
// everything to the store as it completes. It is safe for use from several goroutines;
// JavaScript calls it from one thread, the checkpoint timer from another.
type Session struct {
	mgr *Manager
	id  string

	mu       sync.Mutex
	refs     int
	closed   bool
	provider string // the session's provider, the default of each message's
	keyed    bool   // addressed by a hosted agent's key: leaving it open at exit interrupts it
	titled   bool
	nextSeq  int64
	lastUUID string // the last message of the main conversation
	lastTurn int64
	talking  bool              // the main conversation has a message: the next prompt starts a turn
	accessed bool              // opened or created for use, not only imported into or exported
	sideLast map[string]string // the last message of each sidechain, by sidechain.key
	lastSide sidechain         // the chain of the last message begun
	context  []byte            // stamped on each new message: SetContext
	tracker  TokenTracker
	toolUses map[string]knownCall // tool_use ids known to this process, with their chain
	branch   *branchMemo          // the branch last worked out, for reads until the next write
	hosted   HostedState
	seenSeq  int64 // the first message a hosted agent has not seen

	msg             *openMessage // the message being written, if any
	blk             *openBlock   // the block streaming into msg, if any
	checkpointArmed bool

	lastReport any // of the last context built, for DebugContext (package contextbuild's)

	// gathering is set during a call that records a whole step (Ingest, AddUserMessage): its
	// Ops are kept in gathered and queued together at the end (see record).
	gathering bool
	gathered  []Op
}

func newSession(m *Manager, st SessionState) *Session {
	return &Session{
		mgr:      m,
		id:       st.Info.ID,
		refs:     1,
		provider: st.Info.Provider,
		keyed:    st.Info.Key != "",
		titled:   st.Info.Title != "",
		nextSeq:  st.NextSeq,
		lastUUID: st.LastUUID,
		lastTurn: st.LastTurn,
		talking:  st.LastUUID != "",
		tracker:  st.Tracker,
		sideLast: map[string]string{},
		toolUses: map[string]knownCall{},
		hosted:   HostedState{Checkpoint: st.Info.Checkpoint, SDKSessionID: st.Info.SDKSession},
		seenSeq:  st.Info.SeenSeq,
	}
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
	if s.msg != nil && s.msg.hdr.Type == TypeToolResult {
		s.endOpen(false)
	}
	return nil
}

// checkpointNow queues the block streaming, if any, as far as it has come.
func (s *Session) checkpointNow() error {
	if err := s.lock(); err != nil {
		return err
	}
	s.checkpoint()
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
	cut := s.msg != nil && s.msg.hdr.Role == "assistant"
	s.endOpen(true) // tool results stand: only a reply is cut off
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
			s.checkpoint()
		}
	})
}

// checkpoint queues the block now streaming, as far as it has come, as a partial block.
func (s *Session) checkpoint() {
	if s.blk == nil || !s.blk.dirty {
		return
	}
	if s.mgr.redacts() && IsToolBlock(s.blk.blockType()) {
		return // half a secret would not match: a tool block is stored once complete
	}
	s.blk.dirty = false
	s.record(PutBlock{SessionID: s.id, Seq: s.msg.hdr.Seq, Index: s.msg.blocks, JSON: s.blk.json(), Partial: true})
}

// beginMessage starts a message on chain side, with the envelope state extra, and queues
// it. Each chain links its own messages; a sidechain's messages stay in the turn that
// started them.
func (s *Session) beginMessage(typ, role string, meta messageMeta, provider, requestID string, side sidechain, extra EnvelopeExtra) {
	if provider == "" {
		provider = s.provider
	}
	parent, turn := s.lastUUID, nextTurn(s.lastTurn, !s.talking, typ == TypeUser)
	if side.on {
		parent, turn = s.sideLast[side.key()], s.lastTurn
	}
	hdr := MessageHeader{
		Seq:         s.nextSeq,
		UUID:        uuid.Must(uuid.NewV7()).String(),
		ParentUUID:  parent,
		Type:        typ,
		Role:        role,
		Turn:        turn,
		CreatedAt:   s.mgr.now(),
		Provider:    provider,
		RequestID:   requestID,
		IsSidechain: side.on,
		Meta:        meta.encode(),
		Extra:       extra.Encode(),
	}
	s.nextSeq++
	if side.on {
		s.sideLast[side.key()] = hdr.UUID
	} else {
		s.lastUUID, s.lastTurn, s.talking = hdr.UUID, hdr.Turn, true
	}
	s.lastSide = side
	s.msg = &openMessage{hdr: hdr, side: side, meta: meta, extra: extra}
	s.record(BeginMessage{SessionID: s.id, Header: hdr})
}

// putBlock adds a complete block to the open message, its secrets redacted when the store
// redacts.
func (s *Session) putBlock(json []byte, toolUseID string) {
	json = s.redact(s.mgr.redactor.Block(json))
	s.record(PutBlock{SessionID: s.id, Seq: s.msg.hdr.Seq, Index: s.msg.blocks, JSON: json, ToolUseID: toolUseID})
	s.msg.blocks++
	s.msg.blockJSON = append(s.msg.blockJSON, json)
	if toolUseID != "" && s.msg.hdr.Role == "assistant" {
		s.toolUses[toolUseID] = knownCall{side: s.msg.side, seq: s.msg.hdr.Seq}
	}
}

// endOpen ends the message still open, if any. An assistant reply is interrupted when
// something new cuts it off (a message_start, a prompt), and complete when tool results
// answer it; anything else open is complete.
func (s *Session) endOpen(cutOff bool) {
	if s.msg == nil {
		return
	}
	status := MessageComplete
	if cutOff && s.msg.hdr.Role == "assistant" {
		status = MessageInterrupted
	}
	s.endMessage(status)
}

// endMessage finishes the block streaming, if any, and ends the open message.
func (s *Session) endMessage(status string) {
	s.finishBlock()
	m := s.msg
	s.msg = nil
	meta := m.givenMeta
	if meta == nil {
		meta = m.meta.encode()
	}
	s.record(EndMessage{SessionID: s.id, Seq: m.hdr.Seq, Status: status, Meta: meta, Extra: m.extra.Encode(), Usage: m.usage})
	if m.hasUsage {
		s.countUsage(m.usage)
	}
	s.countTokens(m)
}

// countTokens has the message's tokens counted off this thread and stored with it.
func (s *Session) countTokens(m *openMessage) {
	if s.mgr.counter == nil {
		return
	}
	ended := EndedMessage{SessionID: s.id, Seq: m.hdr.Seq, Role: m.hdr.Role, Provider: m.hdr.Provider,
		Sidechain: m.hdr.IsSidechain, Blocks: m.blockJSON}
	if m.hasUsage {
		u := m.usage
		ended.Usage = &u
	}
	s.mgr.counter.Add(ended)
}

// countUsage adds one request's usage to the token tracker and records the tracker.
func (s *Session) countUsage(u Usage) {
	s.tracker.Add(u)
	s.record(SetTracker{SessionID: s.id, Tracker: s.tracker})
}

// finishBlock completes the block streaming, if any.
func (s *Session) finishBlock() {
	if s.blk == nil {
		return
	}
	b := s.blk
	s.blk = nil
	id := ""
	if b.blockType() == blocks.BlockToolUse {
		id = b.id
	}
	s.putBlock(b.json(), id)
}
