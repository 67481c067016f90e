package session

import (
	"bytes"
	"fmt"
	"slices"
	"time"

	"github.com/goccy/go-json"
	"github.com/google/uuid"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// assembler is the streaming assembler: it turns a session's stream chunks, prompts and
// restored messages into records, and owns what that takes: the message being written and
// the block streaming into it, the tool calls it knows of, and the defaults of each new
// message. It never takes its session's lock (every method is called with it held) and
// never reads the store: what it records it hands to its sink, and the chain says where
// each new message goes.
type assembler struct {
	sink      assemblySink
	chain     *chain
	sessionID string // stamped on every Op

	provider string // the session's provider, the default of each message's
	context  []byte // stamped on each new message: SetContext

	msg      *openMessage         // the message being written, if any
	blk      *openBlock           // the block streaming into msg, if any
	toolUses map[string]knownCall // tool_use ids known to this process, with their chain
}

// assemblySink is what an assembler needs of its session: a Session, or a fake in tests.
type assemblySink interface {
	// record queues op with the Ops of the step under way.
	record(op Op)
	// redactBlock and redactJSON replace the secrets of a block (a tool block's only) or
	// of a JSON value, when the session's store redacts; redacts says whether it does.
	redactBlock(block []byte) []byte
	redactJSON(v []byte) []byte
	redacts() bool
	// now is the clock that stamps new messages.
	now() time.Time
	// addUsage adds one request's usage to the token tracker and records the tracker.
	addUsage(u Usage)
	// countTokens has an ended message's tokens counted off this thread.
	countTokens(m EndedMessage)
	// armCheckpoint makes sure the block streaming is checkpointed soon (checkpoint).
	armCheckpoint()
}

// newAssembler returns the assembler of session id, whose messages go where c says.
func newAssembler(sink assemblySink, c *chain, id, provider string) *assembler {
	return &assembler{sink: sink, chain: c, sessionID: id, provider: provider, toolUses: map[string]knownCall{}}
}

// ingest records one stream chunk but a tool_result (see toolResult), validating it
// before changing anything, so a bad chunk returns an error (ErrInvalidChunk) and leaves
// the assembler as it was.
func (a *assembler) ingest(c stream.Chunk) error {
	switch c.Kind {
	case stream.ChunkMessageStart:
		return a.startAssistant(c)
	case stream.ChunkText:
		a.delta(blocks.BlockText, c.Text)
	case stream.ChunkThinking:
		a.delta(blocks.BlockThinking, c.Text)
	case stream.ChunkSignature:
		a.signature(c.Text)
	case stream.ChunkRedactedThinking:
		a.completeBlock(blocks.MustJSON(blocks.RedactedThinkingBlock{Type: blocks.BlockRedactedThinking, Data: c.Text}), "")
	case stream.ChunkToolUse:
		return a.toolUse(c)
	case stream.ChunkToolUseStart:
		return a.toolUseStart(c)
	case stream.ChunkToolUseDelta:
		return a.toolUseDelta(c)
	case stream.ChunkDone:
		return a.done(c)
	case stream.ChunkError:
		a.streamError(c.Text)
	case stream.ChunkBlock:
		return a.wholeBlock(c)
	case stream.ChunkBlockStart:
		return a.startBlock(c)
	case stream.ChunkBlockFields:
		return a.setBlockFields(c)
	default:
		return fmt.Errorf("%w: unknown chunk type", ErrInvalidChunk)
	}
	return nil
}

// chunkError describes a chunk that cannot be recorded.
func chunkError(kind stream.ChunkKind, format string, args ...any) error {
	return fmt.Errorf("%w: %s chunk: %s", ErrInvalidChunk, kind, fmt.Sprintf(format, args...))
}

// assistant makes sure an assistant message is open: a chunk of model output after tool
// results starts the next assistant message even without a message_start.
func (a *assembler) assistant() {
	if a.msg != nil && a.msg.hdr.Role == "assistant" {
		return
	}
	a.endOpen(false)
	side, extra := a.inheritedState()
	a.beginMessage(TypeAssistant, "assistant", messageMeta{}, "", "", side, extra)
}

// startAssistant begins a new assistant message, with the per-message state the chunk
// carries. One still open never got its done chunk, so it is ended as interrupted.
func (a *assembler) startAssistant(c stream.Chunk) error {
	opts, err := ParseMessageOptions(c.State)
	if err != nil {
		return chunkError(c.Kind, "%v", err)
	}
	a.endOpen(true)
	side, extra := a.stateFor(opts)
	a.beginMessage(TypeAssistant, "assistant", messageMeta{ID: c.ID, Model: c.Model}, c.Provider, c.RequestID, side, extra)
	return nil
}

// delta appends streamed text or thinking, starting a new block when the kind changes.
func (a *assembler) delta(kind, text string) {
	a.assistant()
	if a.blk == nil || a.blk.kind != kind {
		a.finishBlock()
		a.blk = &openBlock{kind: kind}
	}
	a.blk.text.WriteString(text)
	a.blk.dirty = true
	a.sink.armCheckpoint()
}

// signature ends the thinking block streaming; a signature with no thinking before it is
// kept as a thinking block with empty text.
func (a *assembler) signature(sig string) {
	a.assistant()
	if a.blk == nil || a.blk.kind != blocks.BlockThinking {
		a.finishBlock()
		a.blk = &openBlock{kind: blocks.BlockThinking}
	}
	a.blk.signature = &sig
	a.finishBlock()
}

// completeBlock adds a block that arrived whole to the assistant message.
func (a *assembler) completeBlock(json []byte, toolUseID string) {
	a.assistant()
	a.finishBlock()
	a.putBlock(json, toolUseID)
}

func (a *assembler) toolUse(c stream.Chunk) error {
	if c.ID == "" {
		return chunkError(c.Kind, "field 'id' must not be empty")
	}
	block, ok := blocks.ToolUseBlockJSON(c.ID, c.Name, c.JSON)
	if !ok || c.JSON[0] != '{' {
		return chunkError(c.Kind, "field 'input' must be an object")
	}
	a.completeBlock(block, c.ID)
	return nil
}

func (a *assembler) toolUseStart(c stream.Chunk) error {
	if c.ID == "" {
		return chunkError(c.Kind, "field 'id' must not be empty")
	}
	a.assistant()
	a.finishBlock()
	a.blk = &openBlock{kind: blocks.BlockToolUse, id: c.ID, name: c.Name}
	return nil
}

func (a *assembler) toolUseDelta(c stream.Chunk) error {
	if a.blk == nil || a.blk.kind != blocks.BlockToolUse {
		return chunkError(c.Kind, "no tool_use_start before it")
	}
	a.blk.text.WriteString(c.Text)
	a.blk.dirty = true
	a.sink.armCheckpoint()
	return nil
}

// wholeBlock adds one complete block verbatim. A tool_use added this way can be answered
// by tool results like a streamed one; tool results have a chunk of their own.
func (a *assembler) wholeBlock(c stream.Chunk) error {
	info, err := blocks.CheckBlock(c.JSON)
	if err != nil {
		return chunkError(c.Kind, "field 'block': %v", err)
	}
	if info.Type == blocks.BlockToolResult {
		return chunkError(c.Kind, "a tool_result is recorded with a tool_result chunk")
	}
	id := ""
	if info.Type == blocks.BlockToolUse {
		id = info.ToolUseID
	}
	a.completeBlock(bytes.Clone(c.JSON), id)
	return nil
}

// startBlock ends the block streaming, if any, and starts the block given, whose text,
// thinking or input then streams with the delta chunks. Its other fields are kept.
func (a *assembler) startBlock(c stream.Chunk) error {
	b, err := openBlockFrom(c.JSON)
	if err != nil {
		return chunkError(c.Kind, "field 'block': %v", err)
	}
	a.assistant()
	a.finishBlock()
	a.blk = b
	b.dirty = true
	a.sink.armCheckpoint()
	return nil
}

// setBlockFields sets fields of the block streaming, replacing fields of the same name.
func (a *assembler) setBlockFields(c stream.Chunk) error {
	fields, err := decodeFields(c.JSON)
	if err != nil {
		return chunkError(c.Kind, "field 'fields' %v", err)
	}
	if a.blk == nil {
		return chunkError(c.Kind, "no block is streaming")
	}
	streamed := streamedFields[a.blk.kind]
	for name := range fields {
		if slices.Contains(streamed, name) {
			return chunkError(c.Kind, "field %q of a %s block streams and cannot be set", name, a.blk.blockType())
		}
	}
	if a.blk.ext == nil {
		a.blk.ext = &blockExt{typ: a.blk.kind}
	}
	a.blk.ext.set(fields)
	a.blk.dirty = true
	a.sink.armCheckpoint()
	return nil
}

// checkToolResult validates a tool_result chunk before anything is changed.
func checkToolResult(c stream.Chunk) error {
	if err := blocks.CheckToolResultContent(c.JSON); err != nil {
		return chunkError(c.Kind, "field 'content': %v", err)
	}
	if len(c.Raw) > 0 && (c.Raw[0] != '{' || !json.Valid(c.Raw)) {
		return chunkError(c.Kind, "field 'raw' must be an object")
	}
	return nil
}

// toolResult adds a tool result, checked (checkToolResult) and answering a known call
// (knows). Tool results after an assistant message form the next user message, as the
// API wants.
func (a *assembler) toolResult(c stream.Chunk) {
	side := a.toolUseChain(c.ToolUseID)
	if a.msg == nil || a.msg.hdr.Type != TypeToolResult || a.msg.side != side {
		a.endOpen(false)
		a.beginMessage(TypeToolResult, "user", messageMeta{}, "", "", side, a.chainState(side))
	}
	a.putBlock(blocks.ToolResultJSON(c.ToolUseID, c.JSON, c.IsError), "")
	if len(c.Raw) > 0 {
		if a.msg.extra.ToolUseResults == nil {
			a.msg.extra.ToolUseResults = map[string]json.RawMessage{}
		}
		a.msg.extra.ToolUseResults[c.ToolUseID] = a.sink.redactJSON(bytes.Clone(c.Raw))
	}
}

// done ends the assistant message with its stop reason and usage. Usage that arrives
// with no assistant message open still counts in the token tracker.
func (a *assembler) done(c stream.Chunk) error {
	usage, err := ParseUsage(c.Usage)
	if err == nil && len(c.Usage) > 0 && c.Usage[0] != '{' {
		err = fmt.Errorf("got %.20s", c.Usage)
	}
	if err != nil {
		return chunkError(c.Kind, "field 'usage' must be an object of token counts: %v", err)
	}
	hasUsage := len(c.Usage) > 0
	if a.msg == nil || a.msg.hdr.Role != "assistant" {
		a.endOpen(false)
		if hasUsage {
			a.sink.addUsage(usage)
		}
		return nil
	}
	m := a.msg
	if c.ID != "" {
		m.meta.ID = c.ID
	}
	if c.Model != "" {
		m.meta.Model = c.Model
	}
	m.meta.StopReason = c.StopReason
	if c.StopSequence != "" {
		m.meta.StopSequence = &c.StopSequence
	}
	if hasUsage {
		m.meta.Usage = bytes.Clone(c.Usage)
		m.usage, m.hasUsage = usage, true
	}
	a.endMessage(MessageComplete)
	return nil
}

// streamError ends the assistant message streaming, keeping what arrived, and records the
// error on it. Tool results already given are complete whatever the stream does next; with
// no assistant output to mark, the error is not recorded.
func (a *assembler) streamError(message string) {
	if a.msg == nil {
		return
	}
	if a.msg.hdr.Role != "assistant" {
		a.endOpen(false)
		return
	}
	a.msg.extra.Error = message
	a.endMessage(MessageError)
}

// userMessage records a user message of type typ (TypeUser, or TypeToolResult when it
// carries tool results, each answering a known call) from checked blocks, and returns it
// as stored and whether redaction changed its blocks. A message still streaming is ended
// first: an assistant reply cut off by a new prompt is marked interrupted, one answered by
// tool results is complete.
func (a *assembler) userMessage(typ string, checked []checkedBlock, opts MessageOptions) (StoredMessage, bool) {
	a.endOpen(typ == TypeUser)
	if typ == TypeToolResult && !opts.sidechain().on {
		opts.IsSidechain, opts.AgentID, opts.ParentToolUseID = a.toolResultChain(checked)
	}
	side, extra := a.stateFor(opts)
	a.beginMessage(typ, "user", messageMeta{}, "", "", side, extra)
	hdr := a.msg.hdr
	stored := StoredMessage{SessionID: a.sessionID, Status: MessageComplete, Extra: hdr.Extra, Blocks: make([][]byte, 0, len(checked))}
	redacted := false
	for _, b := range checked {
		json := a.putBlock(b.json, "")
		redacted = redacted || (a.sink.redacts() && !bytes.Equal(json, b.json))
		stored.Blocks = append(stored.Blocks, json)
	}
	a.endMessage(MessageComplete)
	stored.IsSidechain = hdr.IsSidechain
	stored.Seq, stored.UUID, stored.ParentUUID, stored.Type, stored.Role = hdr.Seq, hdr.UUID, hdr.ParentUUID, hdr.Type, hdr.Role
	stored.Turn, stored.CreatedAt, stored.Provider = hdr.Turn, hdr.CreatedAt, hdr.Provider
	return stored, redacted
}

// toolResultChain returns, as options, the chain of the tool calls that tool results given
// with no sidechain options answer: the chain of the first one's call.
func (a *assembler) toolResultChain(checked []checkedBlock) (*bool, string, string) {
	for _, b := range checked {
		if b.info.Type == blocks.BlockToolResult {
			side := a.toolUseChain(b.info.ToolUseID)
			return &side.on, side.agentID, side.parentToolUseID
		}
	}
	return nil, "", ""
}

// restored records one message of RestoreMessages, its fields and usage as given.
func (a *assembler) restored(m restoredMessage) {
	side, extra := a.stateFor(MessageOptions{})
	a.beginMessage(m.typ, m.role, messageMeta{}, "", "", side, extra)
	a.msg.givenMeta = m.meta
	for _, b := range m.blocks {
		id := ""
		if b.info.Type == blocks.BlockToolUse {
			id = b.info.ToolUseID
		}
		a.putBlock(b.json, id)
	}
	a.msg.usage, a.msg.hasUsage = m.usage, m.hasUsage
	a.endMessage(MessageComplete)
}

// writing reports whether a message is open.
func (a *assembler) writing() bool { return a.msg != nil }

// replying reports whether an assistant reply is open: closing cuts it off.
func (a *assembler) replying() bool { return a.msg != nil && a.msg.hdr.Role == "assistant" }

// endToolResults ends an open message of tool results as complete.
func (a *assembler) endToolResults() {
	if a.msg != nil && a.msg.hdr.Type == TypeToolResult {
		a.endOpen(false)
	}
}

// beginMessage starts a message on chain side, with the envelope state extra, and queues
// it; the chain says where it goes.
func (a *assembler) beginMessage(typ, role string, meta messageMeta, provider, requestID string, side sidechain, extra EnvelopeExtra) {
	if provider == "" {
		provider = a.provider
	}
	id := uuid.Must(uuid.NewV7()).String()
	seq, parent, turn := a.chain.begin(id, typ, side)
	hdr := MessageHeader{
		Seq:         seq,
		UUID:        id,
		ParentUUID:  parent,
		Type:        typ,
		Role:        role,
		Turn:        turn,
		CreatedAt:   a.sink.now(),
		Provider:    provider,
		RequestID:   requestID,
		IsSidechain: side.on,
		Meta:        meta.encode(),
		Extra:       extra.Encode(),
	}
	a.msg = &openMessage{hdr: hdr, side: side, meta: meta, extra: extra}
	a.sink.record(BeginMessage{SessionID: a.sessionID, Header: hdr})
}

// putBlock adds a complete block to the open message, its secrets redacted when the store
// redacts, and returns it as stored.
func (a *assembler) putBlock(json []byte, toolUseID string) []byte {
	json = a.sink.redactBlock(json)
	a.sink.record(PutBlock{SessionID: a.sessionID, Seq: a.msg.hdr.Seq, Index: a.msg.blocks, JSON: json, ToolUseID: toolUseID})
	a.msg.blocks++
	a.msg.blockJSON = append(a.msg.blockJSON, json)
	if toolUseID != "" && a.msg.hdr.Role == "assistant" {
		a.toolUses[toolUseID] = knownCall{side: a.msg.side, seq: a.msg.hdr.Seq}
	}
	return json
}

// endOpen ends the message still open, if any. An assistant reply is interrupted when
// something new cuts it off (a message_start, a prompt), and complete when tool results
// answer it; anything else open is complete.
func (a *assembler) endOpen(cutOff bool) {
	if a.msg == nil {
		return
	}
	status := MessageComplete
	if cutOff && a.msg.hdr.Role == "assistant" {
		status = MessageInterrupted
	}
	a.endMessage(status)
}

// endMessage finishes the block streaming, if any, and ends the open message.
func (a *assembler) endMessage(status string) {
	a.finishBlock()
	m := a.msg
	a.msg = nil
	meta := m.givenMeta
	if meta == nil {
		meta = m.meta.encode()
	}
	a.sink.record(EndMessage{SessionID: a.sessionID, Seq: m.hdr.Seq, Status: status, Meta: meta, Extra: m.extra.Encode(), Usage: m.usage})
	if m.hasUsage {
		a.sink.addUsage(m.usage)
	}
	ended := EndedMessage{SessionID: a.sessionID, Seq: m.hdr.Seq, Role: m.hdr.Role, Provider: m.hdr.Provider,
		Sidechain: m.hdr.IsSidechain, Blocks: m.blockJSON}
	if m.hasUsage {
		u := m.usage
		ended.Usage = &u
	}
	a.sink.countTokens(ended)
}

// finishBlock completes the block streaming, if any.
func (a *assembler) finishBlock() {
	if a.blk == nil {
		return
	}
	b := a.blk
	a.blk = nil
	id := ""
	if b.blockType() == blocks.BlockToolUse {
		id = b.id
	}
	a.putBlock(b.json(), id)
}

// checkpoint queues the block now streaming, as far as it has come, as a partial block.
func (a *assembler) checkpoint() {
	if a.blk == nil || !a.blk.dirty {
		return
	}
	if a.sink.redacts() && IsToolBlock(a.blk.blockType()) {
		return // half a secret would not match: a tool block is stored once complete
	}
	a.blk.dirty = false
	a.sink.record(PutBlock{SessionID: a.sessionID, Seq: a.msg.hdr.Seq, Index: a.msg.blocks, JSON: a.blk.json(), Partial: true})
}

// stateFor returns the envelope state of a new message given opts.
func (a *assembler) stateFor(opts MessageOptions) (sidechain, EnvelopeExtra) {
	side := opts.sidechain()
	extra := EnvelopeExtra{
		AgentID:          side.agentID,
		ParentToolUseID:  side.parentToolUseID,
		Context:          bytes.Clone(opts.Context),
		Todos:            bytes.Clone(opts.Todos),
		ThinkingMetadata: bytes.Clone(opts.ThinkingMetadata),
	}
	if extra.Context == nil {
		extra.Context = a.context
	}
	return side, extra
}

// inheritedState is the state of model output begun with no message_start: it stays on the
// chain of the message before it.
func (a *assembler) inheritedState() (sidechain, EnvelopeExtra) {
	return a.chain.lastSide, a.chainState(a.chain.lastSide)
}

// chainState is the envelope state of a message on side given no options.
func (a *assembler) chainState(side sidechain) EnvelopeExtra {
	return EnvelopeExtra{AgentID: side.agentID, ParentToolUseID: side.parentToolUseID, Context: a.context}
}

// knows reports whether id names a tool call this process recorded, or one still streaming
// (a streamed tool_use ends only when the next block or message begins).
func (a *assembler) knows(id string) bool {
	if _, ok := a.toolUses[id]; ok {
		return true
	}
	return a.blk != nil && a.blk.blockType() == blocks.BlockToolUse && a.blk.id == id
}

// learnCall notes a tool call an earlier process recorded as record seq: its chain is not
// known here.
func (a *assembler) learnCall(id string, seq int64) { a.toolUses[id] = knownCall{seq: seq} }

// forgetCalls forgets the tool calls whose record off says is off the branch, so that a
// result for one of them is refused.
func (a *assembler) forgetCalls(off func(seq int64) bool) {
	for id, call := range a.toolUses {
		if off(call.seq) {
			delete(a.toolUses, id)
		}
	}
}

// toolUseChain returns the chain of the known tool call id (knows) that a tool result
// answers: tool results go on the chain of the calls they answer. A call still streaming
// is on the open message's chain.
func (a *assembler) toolUseChain(id string) sidechain {
	if call, ok := a.toolUses[id]; ok {
		return call.side
	}
	return a.msg.side
}
