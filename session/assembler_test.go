package session

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session/stream"
)

// fakeSink is an assembler's session in a test: it keeps what the assembler hands it.
type fakeSink struct {
	ops      []Op
	usage    []Usage
	counted  []EndedMessage
	armed    int
	redactor bool // replace "secret" in tool blocks and JSON values, as a redacting store
	clock    time.Time
}

func (f *fakeSink) record(op Op) { f.ops = append(f.ops, op) }
func (f *fakeSink) redactBlock(b []byte) []byte {
	if f.redactor && bytes.Contains(b, []byte(`"tool_`)) {
		return bytes.ReplaceAll(b, []byte("secret"), []byte("[REDACTED]"))
	}
	return b
}
func (f *fakeSink) redactJSON(v []byte) []byte {
	if f.redactor {
		return bytes.ReplaceAll(v, []byte("secret"), []byte("[REDACTED]"))
	}
	return v
}
func (f *fakeSink) redacts() bool              { return f.redactor }
func (f *fakeSink) now() time.Time             { return f.clock }
func (f *fakeSink) addUsage(u Usage)           { f.usage = append(f.usage, u) }
func (f *fakeSink) countTokens(m EndedMessage) { f.counted = append(f.counted, m) }
func (f *fakeSink) armCheckpoint()             { f.armed++ }
func (f *fakeSink) opKinds() string            { return opKinds(f.ops) }
func newFakeAssembler(f *fakeSink) (*assembler, *chain) {
	c := newChain(SessionState{Info: SessionInfo{ID: "s1"}})
	return newAssembler(f, &c, "s1", "anthropic"), &c
}

// opKinds names ops by type, the partial checkpoints apart: "begin put partial end".
func opKinds(ops []Op) string {
	var names []string
	for _, op := range ops {
		switch o := op.(type) {
		case BeginMessage:
			names = append(names, "begin:"+o.Header.Type)
		case PutBlock:
			if o.Partial {
				names = append(names, "partial")
			} else {
				names = append(names, fmt.Sprintf("put%d", o.Index))
			}
		case EndMessage:
			names = append(names, "end:"+o.Status)
		default:
			names = append(names, fmt.Sprintf("%T", op))
		}
	}
	return strings.Join(names, " ")
}

// The assembler turns a reply and the results of its calls into records through its sink
// alone: no lock, no store. Where each message goes comes from its chain.
func TestAssemblerTurnsChunksIntoRecordsThroughItsSink(t *testing.T) {
	f := &fakeSink{clock: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	a, c := newFakeAssembler(f)
	a.userMessage(TypeUser, []checkedBlock{{json: []byte(`{"type":"text","text":"hi"}`)}}, MessageOptions{})
	chunks := []stream.Chunk{
		{Kind: stream.ChunkMessageStart, ID: "msg_1", Model: "m"},
		{Kind: stream.ChunkText, Text: "let me "},
		{Kind: stream.ChunkText, Text: "look"},
		{Kind: stream.ChunkToolUseStart, ID: "toolu_1", Name: "Read"},
		{Kind: stream.ChunkToolUseDelta, Text: `{"file_path":"a.go"}`},
	}
	for _, ch := range chunks {
		if err := a.ingest(ch); err != nil {
			t.Fatalf("%s: %v", ch.Kind, err)
		}
	}
	if f.armed != 3 {
		t.Errorf("checkpoint armed %d times; want 3 (two deltas of text, one of input)", f.armed)
	}
	if !a.knows("toolu_1") {
		t.Error("a tool call still streaming is not known")
	}
	a.checkpoint()
	if err := a.ingest(stream.Chunk{Kind: stream.ChunkDone, StopReason: "tool_use", Usage: []byte(`{"input_tokens":7,"output_tokens":3}`)}); err != nil {
		t.Fatal(err)
	}
	a.toolResult(stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "toolu_1", JSON: []byte(`"package a"`)})
	a.endToolResults()
	want := "begin:user put0 end:complete begin:assistant put0 partial put1 end:complete begin:tool_result put0 end:complete"
	if got := f.opKinds(); got != want {
		t.Fatalf("ops\n %s\nwant\n %s", got, want)
	}
	if len(f.usage) != 1 || f.usage[0].InputTokens != 7 || len(f.counted) != 3 || len(f.counted[1].Blocks) != 2 {
		t.Errorf("usage %v, counted %d messages; want the reply's usage once and every message counted", f.usage, len(f.counted))
	}
	var hdrs []MessageHeader
	for _, op := range f.ops {
		if b, ok := op.(BeginMessage); ok {
			hdrs = append(hdrs, b.Header)
		}
	}
	for i, h := range hdrs {
		if h.Seq != int64(i) || h.Turn != 0 || !h.CreatedAt.Equal(f.clock) || (i > 0 && h.ParentUUID != hdrs[i-1].UUID) {
			t.Errorf("message %d: seq %d turn %d parent %q at %v; want seq %d, turn 0, following the one before, at the sink's time", i, h.Seq, h.Turn, h.ParentUUID, h.CreatedAt, i)
		}
	}
	if c.nextSeq != 3 || c.lastUUID != hdrs[2].UUID || a.writing() {
		t.Errorf("chain at seq %d head %q, writing %v; want 3, the tool results, nothing open", c.nextSeq, c.lastUUID, a.writing())
	}
}

// A bad chunk leaves the assembler as it was: nothing recorded, nothing open.
func TestAssemblerRefusesABadChunkUnchanged(t *testing.T) {
	f := &fakeSink{}
	a, c := newFakeAssembler(f)
	for _, ch := range []stream.Chunk{
		{Kind: stream.ChunkToolUseDelta, Text: "{}"},
		{Kind: stream.ChunkToolUse, Name: "Read", JSON: []byte(`{}`)},
		{Kind: stream.ChunkDone, Usage: []byte(`[1]`)},
		{Kind: stream.ChunkBlockFields, JSON: []byte(`{"citations":[]}`)},
	} {
		if err := a.ingest(ch); err == nil {
			t.Errorf("%s chunk accepted", ch.Kind)
		}
	}
	if len(f.ops) != 0 || a.writing() || c.nextSeq != 0 {
		t.Errorf("after bad chunks: ops %s, writing %v, next seq %d; want none", f.opKinds(), a.writing(), c.nextSeq)
	}
}

// A done chunk's bad usage is INVALID_CHUNK saying what is wrong with it, not only that
// something is; nothing is recorded or counted.
func TestAssemblerSaysWhyAUsageIsBad(t *testing.T) {
	f := &fakeSink{}
	a, _ := newFakeAssembler(f)
	err := a.ingest(stream.Chunk{Kind: stream.ChunkDone, Usage: []byte(`{"input_tokens":12,"output_tokens":"7"}`)})
	if !errors.Is(err, ErrInvalidChunk) || !strings.Contains(err.Error(), "output_tokens") {
		t.Fatalf("done with a string count: %v; want ErrInvalidChunk naming output_tokens", err)
	}
	if len(f.ops) != 0 || len(f.usage) != 0 {
		t.Errorf("a bad usage recorded %s and counted %v", f.opKinds(), f.usage)
	}
}

// With a redacting sink a tool call streaming is not checkpointed (half a secret would not
// match), and a user message says when its blocks came back redacted.
func TestAssemblerRedactsToolBlocksWhole(t *testing.T) {
	f := &fakeSink{redactor: true}
	a, _ := newFakeAssembler(f)
	if _, redacted := a.userMessage(TypeUser, []checkedBlock{{json: []byte(`{"type":"text","text":"a secret"}`)}}, MessageOptions{}); redacted {
		t.Error("a prompt's text was reported redacted")
	}
	for _, ch := range []stream.Chunk{
		{Kind: stream.ChunkMessageStart, ID: "m"},
		{Kind: stream.ChunkToolUseStart, ID: "toolu_1", Name: "Bash"},
		{Kind: stream.ChunkToolUseDelta, Text: `{"cmd":"echo secr`},
	} {
		if err := a.ingest(ch); err != nil {
			t.Fatal(err)
		}
	}
	a.checkpoint()
	if err := a.ingest(stream.Chunk{Kind: stream.ChunkToolUseDelta, Text: `et"}`}); err != nil {
		t.Fatal(err)
	}
	a.endOpen(false)
	stored, redacted := a.userMessage(TypeToolResult, []checkedBlock{{json: []byte(`{"type":"tool_result","tool_use_id":"toolu_1","content":"secret"}`)}}, MessageOptions{})
	if !redacted || strings.Contains(string(stored.Blocks[0]), "secret") {
		t.Errorf("tool result came back %s, redacted %v; want it redacted and said so", stored.Blocks[0], redacted)
	}
	want := "begin:user put0 end:complete begin:assistant put0 end:complete begin:tool_result put0 end:complete"
	if got := f.opKinds(); got != want {
		t.Errorf("ops\n %s\nwant\n %s", got, want)
	}
}
