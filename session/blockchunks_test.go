package session_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

func block(js string) session.Chunk {
	return session.Chunk{Kind: session.ChunkBlock, JSON: []byte(js)}
}
func blockStart(js string) session.Chunk {
	return session.Chunk{Kind: session.ChunkBlockStart, JSON: []byte(js)}
}
func blockFields(js string) session.Chunk {
	return session.Chunk{Kind: session.ChunkBlockFields, JSON: []byte(js)}
}

func TestBlockChunkKeepsAWholeBlockVerbatim(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	result := `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://example.com","title":"Ex","encrypted_content":"Eo8B","page_age":null}]}`
	reasoning := `{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**Plan**"}],"encrypted_content":"gAAAAB=="}`
	feed(t, s, start("m"), text("Searching."), block(result), block(reasoning), text("Found it."), done("end_turn", ""))
	got := content(t, messages(t, s)[0])
	want := []map[string]any{
		{"type": "text", "text": "Searching."},
		decode(t, result).(map[string]any),
		decode(t, reasoning).(map[string]any),
		{"type": "text", "text": "Found it."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("content = %v\nwant %v", got, want)
	}
}

func TestToolUseGivenAsBlockCanBeAnswered(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	feed(t, s, start("m"), block(`{"type":"tool_use","id":"t1","name":"ls","input":{"dir":"."},"caller":{"type":"direct"}}`),
		done("tool_use", ""), toolResult("t1", `"a.go"`))
	msgs := messages(t, s)
	if len(msgs) != 2 || content(t, msgs[0])[0]["caller"] == nil || content(t, msgs[1])[0]["tool_use_id"] != "t1" {
		t.Fatalf("messages = %v", msgs)
	}
}

func TestBlockStartKeepsFieldsAndStreamsContent(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	feed(t, s, start("m"),
		blockStart(`{"type":"thinking","thinking":"","signature":""}`), thinking("Hm"), thinking("m."), signature("sig"),
		blockStart(`{"type":"text","text":"","citations":null}`), text("Para"), text("graph one."),
		// A second text block right after the first stays a block of its own.
		blockStart(`{"type":"text","text":"Two"}`), text(" words"),
		blockStart(`{"type":"tool_use","id":"t1","name":"get_weather","input":{},"caller":{"type":"direct"}}`),
		toolUseDelta(`{"city":`), toolUseDelta(`"Paris"}`),
		blockStart(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`),
		toolUseDelta(`{"query":"weather"}`),
		blockStart(`{"type":"mcp_tool_use","id":"mcptoolu_1","name":"echo","server_name":"s","input":{"x":1}}`),
		done("end_turn", ""),
	)
	got := content(t, messages(t, s)[0])
	want := []any{
		decode(t, `{"type":"thinking","thinking":"Hmm.","signature":"sig"}`),
		decode(t, `{"type":"text","text":"Paragraph one.","citations":null}`),
		decode(t, `{"type":"text","text":"Two words"}`),
		decode(t, `{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Paris"},"caller":{"type":"direct"}}`),
		decode(t, `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"weather"}}`),
		// No input streamed: the input given stays.
		decode(t, `{"type":"mcp_tool_use","id":"mcptoolu_1","name":"echo","server_name":"s","input":{"x":1}}`),
	}
	if len(got) != len(want) {
		t.Fatalf("content = %v", got)
	}
	for i := range want {
		if !reflect.DeepEqual(any(got[i]), want[i]) {
			t.Errorf("block %d = %v\nwant %v", i, got[i], want[i])
		}
	}
}

func TestServerToolUseIsNotAToolUseToAnswer(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	feed(t, s, start("m"), blockStart(`{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{}}`))
	if err := s.Ingest(toolResult("srv_1", `"x"`)); !errors.Is(err, session.ErrUnknownToolUse) {
		t.Errorf("tool_result for a server_tool_use still streaming: err = %v, want ErrUnknownToolUse", err)
	}
	feed(t, s, done("end_turn", ""))
	if err := s.Ingest(toolResult("srv_1", `"x"`)); !errors.Is(err, session.ErrUnknownToolUse) {
		t.Errorf("tool_result for a recorded server_tool_use: err = %v, want ErrUnknownToolUse", err)
	}
}

func TestBlockFieldsSetFieldsOfTheBlockStreaming(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	c1 := `{"type":"web_search_result_location","cited_text":"It rains","url":"https://a"}`
	c2 := `{"type":"web_search_result_location","cited_text":"Often","url":"https://b"}`
	feed(t, s, start("m"),
		blockStart(`{"type":"text","text":"","citations":null}`), text("It rains"),
		blockFields(`{"citations":[`+c1+`]}`), text(" often."),
		blockFields(`{"citations":[`+c1+`,`+c2+`]}`),
		// On a block started with a plain delta chunk too.
		text(""), thinking("then"), blockFields(`{"providerMetadata":{"openai":{"itemId":"rs_1"}}}`),
		done("end_turn", ""))
	got := content(t, messages(t, s)[0])
	want := []any{
		decode(t, `{"type":"text","text":"It rains often.","citations":[`+c1+`,`+c2+`]}`),
		decode(t, `{"type":"thinking","thinking":"then","providerMetadata":{"openai":{"itemId":"rs_1"}}}`),
	}
	if len(got) != 2 || !reflect.DeepEqual(any(got[0]), want[0]) || !reflect.DeepEqual(any(got[1]), want[1]) {
		t.Fatalf("content = %v\nwant %v", got, want)
	}
}

func TestBlockStartIsCheckpointedWithItsFields(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	feed(t, s, start("m"), blockStart(`{"type":"text","text":"","citations":null}`), text("partial"),
		blockFields(`{"citations":[{"type":"char_location","cited_text":"x"}]}`))
	time.Sleep(3 * session.CheckpointInterval)
	if err := e.store.Sync(); err != nil {
		t.Fatal(err)
	}
	got := storedBlocks(t, e.path, s.ID())
	if len(got) != 1 || len(got[0].Blocks) != 1 {
		t.Fatalf("stored = %+v", got)
	}
	want := decode(t, `{"type":"text","text":"partial","citations":[{"type":"char_location","cited_text":"x"}]}`)
	if b := decode(t, string(got[0].Blocks[0])); !reflect.DeepEqual(b, want) {
		t.Fatalf("checkpointed block = %v\nwant %v", b, want)
	}
}

func TestDoneNamesIDAndModelReportedAtTheEnd(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	d := done("end_turn", "")
	d.ID, d.Model = "msg_late", "model-late"
	feed(t, s, session.Chunk{Kind: session.ChunkMessageStart}, text("hi"), d)
	m := messages(t, s)[0]
	if m["id"] != "msg_late" || m["model"] != "model-late" {
		t.Fatalf("message = %v", m)
	}
}

func TestBadBlockChunksAreRejectedAndChangeNothing(t *testing.T) {
	bad := []struct {
		name  string
		chunk session.Chunk
	}{
		{"block not JSON", block(`{"type":`)},
		{"block not an object", block(`["text"]`)},
		{"block without type", block(`{"text":"x"}`)},
		{"block text without text", block(`{"type":"text"}`)},
		{"block tool_result", block(`{"type":"tool_result","tool_use_id":"t1","content":"x"}`)},
		{"block_start array", blockStart(`[]`)},
		{"block_start with nothing that streams", blockStart(`{"type":"redacted_thinking","data":"x"}`)},
		{"block_start text not string", blockStart(`{"type":"text","text":5}`)},
		{"block_start thinking signature not string", blockStart(`{"type":"thinking","thinking":"","signature":1}`)},
		{"block_start input block without id", blockStart(`{"type":"tool_use","name":"n","input":{}}`)},
		{"block_start input block with empty id", blockStart(`{"type":"tool_use","id":"","name":"n","input":{}}`)},
		{"block_start input block without name", blockStart(`{"type":"server_tool_use","id":"s","input":{}}`)},
		{"block_fields not object", blockFields(`"x"`)},
		{"block_fields sets a streamed field", blockFields(`{"text":"replaced"}`)},
		{"block_fields sets the type", blockFields(`{"type":"thinking"}`)},
	}
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "hi")
	feed(t, s, start("m"), text("partial"))
	before := must(s.Messages(true))
	for _, c := range bad {
		if err := s.Ingest(c.chunk); !errors.Is(err, session.ErrInvalidChunk) {
			t.Errorf("%s: err = %v, want ErrInvalidChunk", c.name, err)
			continue
		}
		if after := must(s.Messages(true)); !bytes.Equal(before, after) {
			t.Fatalf("%s changed the session:\nbefore %s\nafter  %s", c.name, before, after)
		}
	}
	feed(t, s, done("end_turn", ""))
	if err := s.Ingest(blockFields(`{"a":1}`)); !errors.Is(err, session.ErrInvalidChunk) {
		t.Errorf("block_fields with no block streaming: err = %v, want ErrInvalidChunk", err)
	}
}

func TestLastEnvelopeReadsOnlyTheLastMessage(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	if got := string(must(s.LastEnvelope())); got != "null" {
		t.Fatalf("LastEnvelope of an empty session = %s, want null", got)
	}
	for i := 0; i < 3; i++ {
		prompt(t, s, "q")
		feed(t, s, start("m"), text("a"), done("end_turn", ""))
	}
	feed(t, s, start("m_last"), text("still "), text("going"))
	last := decodeObject(t, must(s.LastEnvelope()))
	all := envelopes(t, s)
	if len(all) != 7 || !reflect.DeepEqual(last, all[6]) {
		t.Fatalf("LastEnvelope = %v\nwant %v", last, all[len(all)-1])
	}
	if last["status"] != "streaming" || last["message"].(map[string]any)["id"] != "m_last" {
		t.Fatalf("LastEnvelope = %v", last)
	}
	// After reopening, from the store alone.
	id := s.ID()
	e2 := e.reopen(t)
	last = decodeObject(t, must(e2.open(t, id).LastEnvelope()))
	if last["status"] != "interrupted" || last["message"].(map[string]any)["id"] != "m_last" {
		t.Fatalf("LastEnvelope after reopen = %v", last)
	}
}
