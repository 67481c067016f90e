package searchtext

import (
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
)

// TestOfBody: the text of each kind of block, joined by spaces; thinking and media
// are not searched; escaped text is searched decoded; a body that is not JSON, packed or
// plain, has none.
func TestOfBody(t *testing.T) {
	body := func(content string) []byte {
		return []byte(`{"uuid":"u","message":{"role":"user","content":[` + content + `]}}`)
	}
	for _, c := range []struct{ name, content, want string }{
		{"text", `{"type":"text","text":"hello world"}`, "hello world"},
		{"escaped text", `{"type":"text","text":"caf\u00e9 \"quoted\""}`, `café "quoted"`},
		{"tool use", `{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"/a.go"}}`, `Read {"file_path":"/a.go"}`},
		{"tool result string", `{"type":"tool_result","tool_use_id":"t","content":"line one"}`, "line one"},
		{"tool result blocks", `{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"},{"type":"image","source":{}},{"type":"text","text":"b"}]}`, "a b"},
		{"not searched", `{"type":"thinking","thinking":"secret"},{"type":"image","source":{"data":"xyz"}}`, ""},
		{"several", `{"type":"text","text":"one"},{"type":"thinking","thinking":"no"},{"type":"text","text":"two"}`, "one two"},
	} {
		if got := string(OfBody(body(c.content))); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	large := body(`{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"ocelot ` + strings.Repeat("func handler() { return nil } // line ", 3*bodycodec.LivePackAbove/30) + `"}]}`)
	packed := bodycodec.Pack(nil, large, bodycodec.LivePackAbove)
	if !bodycodec.IsPacked(packed) {
		t.Fatal("the large body did not pack")
	}
	if got, want := string(OfBody(packed)), string(OfBody(large)); got != want || len(got) < 3*bodycodec.LivePackAbove {
		t.Errorf("packed body: %d bytes of text, plain %d", len(got), len(want))
	}
	for _, bad := range [][]byte{nil, []byte(`{"message":`), {bodycodec.PackedMarker, 1, 2, 3}} {
		if got := OfBody(bad); got != nil {
			t.Errorf("%q: %q, want no text", bad, got)
		}
	}
}
