package codex

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// referenceSource is how a record's source was written before plainMembers: the record
// decoded into a map, its payload replaced, the map encoded.
func referenceSource(text []byte, payload json.RawMessage, mapped *[]string) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(text, &fields); err != nil {
		return nil, err
	}
	if mapped != nil {
		fields["payload"] = without(payload, *mapped)
	}
	return blocks.MustJSON(map[string]any{"format": Format, "record": fields}), nil
}

// outcome is what a way of writing a source gave: its bytes, or its error or panic.
type outcome struct {
	source []byte
	failed string
}

// attempt runs write, its panic caught.
func attempt(write func() ([]byte, error)) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			o.failed = fmt.Sprint("panic: ", p)
		}
	}()
	source, err := write()
	if err != nil {
		return outcome{failed: "error"}
	}
	return outcome{source: source}
}

// checkSourceOfLine checks that a rollout line's source, as record writes it, is what
// referenceSource writes, the payload's fields mapped as a converter maps them. It
// returns false for a line Read leaves out before converting it.
func checkSourceOfLine(t *testing.T, text []byte) bool {
	t.Helper()
	var l line
	if json.Unmarshal(text, &l) != nil || l.Type == "" {
		return false
	}
	var mapped *[]string
	if l.Type == "response_item" {
		m, err := (&converter{}).responseItem(l.Payload, &importing.Record{}, &session.EnvelopeExtra{})
		if err != nil {
			return false
		}
		mapped = m
	}
	want := attempt(func() ([]byte, error) { return referenceSource(text, l.Payload, mapped) })
	got := attempt(func() ([]byte, error) {
		members, plain := plainMembers(text)
		return recordSource(text, members, plain, l.Payload, mapped)
	})
	if !bytes.Equal(got.source, want.source) || got.failed != want.failed {
		t.Errorf("line %q:\n got  %q %s\n want %q %s", text, got.source, got.failed, want.source, want.failed)
	}
	return true
}

// TestSourcesOfTheRealRolloutsAreUnchanged compares every line of the real Codex rollouts.
func TestSourcesOfTheRealRolloutsAreUnchanged(t *testing.T) {
	files := fixtures.Files("codex")
	if len(files) == 0 {
		t.Skip("the real fixtures are not beside the repository")
	}
	checked, plain := 0, 0
	for _, file := range files {
		for text := range bytes.Lines(file) {
			text = bytes.TrimRight(text, "\r\n")
			if checkSourceOfLine(t, text) {
				checked++
				if _, ok := plainMembers(text); ok {
					plain++
				}
			}
		}
	}
	if checked < 100 || plain != checked {
		t.Errorf("%d lines checked, %d of them plain: want every real line on the fast path", checked, plain)
	}
}

// sourceEdgeCases are records whose source the encoder rewrites, or that plainMembers must
// decline.
var sourceEdgeCases = []string{
	// escapes and characters the encoder rewrites, in values and nested keys
	`{"type":"event_msg","payload":{"type":"x","text":"a\u0041\/b\"c\\d\n\t\u00e9\ud83d\ude00"}}`,
	`{"type":"event_msg","payload":{"html":"<b>&amp;</b>","<k>":"&"},"z&":"<>"}`,
	"{\"type\":\"event_msg\",\"payload\":{\"seps\":\"a\u2028b\u2029c\"}}",
	"{\"type\":\"event_msg\",\"payload\":{\"bad\":\"a\xffb\xc3\"}}",
	"{\"type\":\"event_msg\",\"payload\":{\"ctl\":\"a\x01b\"}}",
	`{"type":"event_msg","payload":{"n":-1.50e+3,"t":true,"f":false,"z":null,"a":[1, {"b" : 2}]}}`,
	// quotes and brackets in strings, after runs of backslashes
	`{"type":"event_msg","payload":{"s":"a\\\"}{\\","t":"\\\\","u":"]\"["},"v":"\\"}`,
	// white space everywhere, nested objects with unsorted keys (kept in their order)
	" { \"type\" : \"turn_context\" ,\n\t\"payload\" : { \"z\" : 1 , \"a\" : { \"y\" : [ ] , \"b\" : { } } } , \"timestamp\" : \"t\" } ",
	// keys: escaped, HTML, non-ASCII, duplicated (the decoder keeps the last value)
	`{"\u0074ype":"event_msg","type":"event_msg","payload":{}}`,
	`{"type":"event_msg","payload":{"a":1},"payload":{"b":2}}`,
	`{"type":"event_msg","payload":{},"k\u00e9":1,"é":2}`,
	`{"type":"event_msg","payload":{},"a<b":1}`,
	`{"type":"response_item","payload":{"type":"function_call","name":"n","arguments":"{}","call_id":"c","call_id":"d","z":1,"a":2}}`,
	// response items: mapped fields leave the payload, the rest is sorted
	`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<hi> & bye"}],"id":"m1"}}`,
	`{"type":"response_item","payload":{"type":"web_search_call","status":"done","action":{"type":"search","query":"q<"}}}`,
	`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"ok"},"timestamp":"2025"}`,
	`{"type":"response_item","payload":{"type":"message","role":"developer","content":[]}}`,
	// objects that are not what they seem
	`{"type":"event_msg","payload":{}}   `,
	`{"type":"event_msg"}`,
	`{"type":"event_msg","payload":null,"x":[1,2}`,
	`{"type":"event_msg","payload":"}{"}`,
}

// TestSourcesOfEdgeCasesAreUnchanged compares the edge cases' sources.
func TestSourcesOfEdgeCasesAreUnchanged(t *testing.T) {
	for _, c := range sourceEdgeCases {
		checkSourceOfLine(t, []byte(c))
	}
}

// FuzzSourceOfARecord compares random records' sources, seeded with the edge cases and the
// real rollouts' lines.
func FuzzSourceOfARecord(f *testing.F) {
	for _, c := range sourceEdgeCases {
		f.Add([]byte(c))
	}
	for _, file := range fixtures.Files("codex") {
		lines := bytes.Split(file, []byte("\n"))
		for _, text := range fixtures.Spread(lines, 40) {
			f.Add(text)
		}
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		checkSourceOfLine(t, text)
	})
}
