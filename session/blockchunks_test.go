package session_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func block(js string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkBlock, JSON: []byte(js)}
}
func blockStart(js string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkBlockStart, JSON: []byte(js)}
}
func blockFields(js string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkBlockFields, JSON: []byte(js)}
}

func TestBlockChunkKeepsAWholeBlockVerbatim(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	result := `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://example.com","title":"Ex","encrypted_content":"Eo8B","page_age":null}]}`
	reasoning := `{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**Plan**"}],"encrypted_content":"gAAAAB=="}`
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("Searching."), block(result), block(reasoning), sessiontest.Text("Found it."), sessiontest.Done("end_turn", ""))
	got := sessiontest.Content(t, sessiontest.Messages(t, s)[0])
	want := []map[string]any{
		{"type": "text", "text": "Searching."},
		sessiontest.Decode(t, result).(map[string]any),
		sessiontest.Decode(t, reasoning).(map[string]any),
		{"type": "text", "text": "Found it."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("content = %v\nwant %v", got, want)
	}
}

func TestToolUseGivenAsBlockCanBeAnswered(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), block(`{"type":"tool_use","id":"t1","name":"ls","input":{"dir":"."},"caller":{"type":"direct"}}`),
		sessiontest.Done("tool_use", ""), sessiontest.ToolResult("t1", `"a.go"`))
	msgs := sessiontest.Messages(t, s)
	if len(msgs) != 2 || sessiontest.Content(t, msgs[0])[0]["caller"] == nil || sessiontest.Content(t, msgs[1])[0]["tool_use_id"] != "t1" {
		t.Fatalf("messages = %v", msgs)
	}
}

func TestBlockStartKeepsFieldsAndStreamsContent(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"),
		blockStart(`{"type":"thinking","thinking":"","signature":""}`), sessiontest.Thinking("Hm"), sessiontest.Thinking("m."), sessiontest.Signature("sig"),
		blockStart(`{"type":"text","text":"","citations":null}`), sessiontest.Text("Para"), sessiontest.Text("graph one."),
		// A second text block right after the first stays a block of its own.
		blockStart(`{"type":"text","text":"Two"}`), sessiontest.Text(" words"),
		blockStart(`{"type":"tool_use","id":"t1","name":"get_weather","input":{},"caller":{"type":"direct"}}`),
		sessiontest.ToolUseDelta(`{"city":`), sessiontest.ToolUseDelta(`"Paris"}`),
		blockStart(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`),
		sessiontest.ToolUseDelta(`{"query":"weather"}`),
		blockStart(`{"type":"mcp_tool_use","id":"mcptoolu_1","name":"echo","server_name":"s","input":{"x":1}}`),
		sessiontest.Done("end_turn", ""),
	)
	got := sessiontest.Content(t, sessiontest.Messages(t, s)[0])
	want := []any{
		sessiontest.Decode(t, `{"type":"thinking","thinking":"Hmm.","signature":"sig"}`),
		sessiontest.Decode(t, `{"type":"text","text":"Paragraph one.","citations":null}`),
		sessiontest.Decode(t, `{"type":"text","text":"Two words"}`),
		sessiontest.Decode(t, `{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Paris"},"caller":{"type":"direct"}}`),
		sessiontest.Decode(t, `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"weather"}}`),
		// No input streamed: the input given stays.
		sessiontest.Decode(t, `{"type":"mcp_tool_use","id":"mcptoolu_1","name":"echo","server_name":"s","input":{"x":1}}`),
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
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), blockStart(`{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{}}`))
	if err := s.Ingest(sessiontest.ToolResult("srv_1", `"x"`)); !errors.Is(err, session.ErrUnknownToolUse) {
		t.Errorf("tool_result for a server_tool_use still streaming: err = %v, want ErrUnknownToolUse", err)
	}
	sessiontest.Feed(t, s, sessiontest.Done("end_turn", ""))
	if err := s.Ingest(sessiontest.ToolResult("srv_1", `"x"`)); !errors.Is(err, session.ErrUnknownToolUse) {
		t.Errorf("tool_result for a recorded server_tool_use: err = %v, want ErrUnknownToolUse", err)
	}
}

func TestBlockFieldsSetFieldsOfTheBlockStreaming(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	c1 := `{"type":"web_search_result_location","cited_text":"It rains","url":"https://a"}`
	c2 := `{"type":"web_search_result_location","cited_text":"Often","url":"https://b"}`
	sessiontest.Feed(t, s, sessiontest.Start("m"),
		blockStart(`{"type":"text","text":"","citations":null}`), sessiontest.Text("It rains"),
		blockFields(`{"citations":[`+c1+`]}`), sessiontest.Text(" often."),
		blockFields(`{"citations":[`+c1+`,`+c2+`]}`),
		// On a block started with a plain delta chunk too.
		sessiontest.Text(""), sessiontest.Thinking("then"), blockFields(`{"providerMetadata":{"openai":{"itemId":"rs_1"}}}`),
		sessiontest.Done("end_turn", ""))
	got := sessiontest.Content(t, sessiontest.Messages(t, s)[0])
	want := []any{
		sessiontest.Decode(t, `{"type":"text","text":"It rains often.","citations":[`+c1+`,`+c2+`]}`),
		sessiontest.Decode(t, `{"type":"thinking","thinking":"then","providerMetadata":{"openai":{"itemId":"rs_1"}}}`),
	}
	if len(got) != 2 || !reflect.DeepEqual(any(got[0]), want[0]) || !reflect.DeepEqual(any(got[1]), want[1]) {
		t.Fatalf("content = %v\nwant %v", got, want)
	}
}

func TestBlockStartIsCheckpointedWithItsFields(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), blockStart(`{"type":"text","text":"","citations":null}`), sessiontest.Text("partial"),
		blockFields(`{"citations":[{"type":"char_location","cited_text":"x"}]}`))
	time.Sleep(3 * session.CheckpointInterval)
	if err := e.Store.Sync(); err != nil {
		t.Fatal(err)
	}
	got := storedBlocks(t, e.Path, s.ID())
	if len(got) != 1 || len(got[0].Blocks) != 1 {
		t.Fatalf("stored = %+v", got)
	}
	want := sessiontest.Decode(t, `{"type":"text","text":"partial","citations":[{"type":"char_location","cited_text":"x"}]}`)
	if b := sessiontest.Decode(t, string(got[0].Blocks[0])); !reflect.DeepEqual(b, want) {
		t.Fatalf("checkpointed block = %v\nwant %v", b, want)
	}
}

func TestDoneNamesIDAndModelReportedAtTheEnd(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	d := sessiontest.Done("end_turn", "")
	d.ID, d.Model = "msg_late", "model-late"
	sessiontest.Feed(t, s, stream.Chunk{Kind: stream.ChunkMessageStart}, sessiontest.Text("hi"), d)
	m := sessiontest.Messages(t, s)[0]
	if m["id"] != "msg_late" || m["model"] != "model-late" {
		t.Fatalf("message = %v", m)
	}
}

func TestBadBlockChunksAreRejectedAndChangeNothing(t *testing.T) {
	bad := []struct {
		name  string
		chunk stream.Chunk
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
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "hi")
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("partial"))
	before := sessiontest.Must(s.Messages(true))
	for _, c := range bad {
		if err := s.Ingest(c.chunk); !errors.Is(err, session.ErrInvalidChunk) {
			t.Errorf("%s: err = %v, want ErrInvalidChunk", c.name, err)
			continue
		}
		if after := sessiontest.Must(s.Messages(true)); !bytes.Equal(before, after) {
			t.Fatalf("%s changed the session:\nbefore %s\nafter  %s", c.name, before, after)
		}
	}
	sessiontest.Feed(t, s, sessiontest.Done("end_turn", ""))
	if err := s.Ingest(blockFields(`{"a":1}`)); !errors.Is(err, session.ErrInvalidChunk) {
		t.Errorf("block_fields with no block streaming: err = %v, want ErrInvalidChunk", err)
	}
}

func TestLastEnvelopeReadsOnlyTheLastMessage(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	if got := string(sessiontest.Must(s.LastEnvelope())); got != "null" {
		t.Fatalf("LastEnvelope of an empty session = %s, want null", got)
	}
	for i := 0; i < 3; i++ {
		sessiontest.Prompt(t, s, "q")
		sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("a"), sessiontest.Done("end_turn", ""))
	}
	sessiontest.Feed(t, s, sessiontest.Start("m_last"), sessiontest.Text("still "), sessiontest.Text("going"))
	last := sessiontest.DecodeObject(t, sessiontest.Must(s.LastEnvelope()))
	all := sessiontest.Envelopes(t, s)
	if len(all) != 7 || !reflect.DeepEqual(last, all[6]) {
		t.Fatalf("LastEnvelope = %v\nwant %v", last, all[len(all)-1])
	}
	if last["status"] != "streaming" || last["message"].(map[string]any)["id"] != "m_last" {
		t.Fatalf("LastEnvelope = %v", last)
	}
	// After reopening, from the store alone.
	id := s.ID()
	e2 := e.Reopen(t)
	last = sessiontest.DecodeObject(t, sessiontest.Must(e2.Open(t, id).LastEnvelope()))
	if last["status"] != "interrupted" || last["message"].(map[string]any)["id"] != "m_last" {
		t.Fatalf("LastEnvelope after reopen = %v", last)
	}
}
