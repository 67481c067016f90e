package bodycodec

import (
	"bytes"
	"errors"
	"maps"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// importedKinds are bodies of each kind of record an import stores: a prompt, a reply with
// thinking and a tool call, a tool result with escaped non-ASCII text, a Codex record, one
// shorter than any frame could make it, and text that does not pack at all.
var importedKinds = map[string]string{
	"prompt":      `{"uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2025-01-01T00:00:00.000Z","type":"user","status":"complete","turn":1,"isSidechain":false,"message":{"role":"user","content":[{"type":"text","text":"fix the failing test in parser_test.go"}]}}`,
	"reply":       `{"uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":"2025-01-01T00:00:01.000Z","type":"assistant","requestId":"req_011C","status":"complete","turn":1,"isSidechain":false,"message":{"role":"assistant","content":[{"type":"thinking","thinking":"look first","signature":"abc"},{"type":"tool_use","id":"toolu_01","name":"Read","input":{"file_path":"/src/parser_test.go"}}],"id":"msg_01","model":"claude-sonnet-4-5-20250929","stop_reason":"tool_use","stop_sequence":null,"type":"message","usage":{"input_tokens":3,"output_tokens":120,"service_tier":"standard"}}}`,
	"tool result": `{"uuid":"u3","parentUuid":"u2","sessionId":"s","timestamp":"2025-01-01T00:00:02.000Z","type":"user","status":"complete","turn":1,"isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"caf\u00e9 \u2192 \ud83d\ude00 line 1\nline 2","is_error":false}]}}`,
	"codex":       `{"uuid":"c1","sessionId":"s","timestamp":"2025-09-25T01:22:43.700Z","type":"assistant","status":"complete","turn":2,"context":{"cwd":"/w","gitBranch":"main"},"source":{"format":"codex","record":{"payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"ls\"]}","call_id":"call_1"},"type":"response_item"}},"message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}`,
	"tiny":        `{}`,
	"noise":       `{"t":"q8#Zx!0pLm@3v"}`,
}

// TestImportedBodiesRoundTrip: every kind of imported body reads back byte for byte; those
// long enough are stored packed with the dictionary and smaller, the rest plain; over
// zstdAbove with zstd, under it with s2.
func TestImportedBodiesRoundTrip(t *testing.T) {
	importedKinds := maps.Clone(importedKinds)
	importedKinds["tool output"] = string(codeText(4 * zstdAbove))
	for kind, body := range importedKinds {
		stored := PackImported(nil, []byte(body))
		if len(stored) > len(body) {
			t.Errorf("%s: stored in %d bytes, more than its %d", kind, len(stored), len(body))
		}
		if packed := IsPacked(stored); packed != (kind != "tiny" && kind != "noise") {
			t.Errorf("%s: packed %v (%d bytes of %d)", kind, packed, len(stored), len(body))
		}
		if got, err := Unpack(nil, stored); err != nil || string(got) != body {
			t.Errorf("%s: read back as %q, %v", kind, got, err)
		}
		if want := packedWith(len(body)); IsPacked(stored) && stored[0] != want {
			t.Errorf("%s: %d bytes packed with %#x, want %#x", kind, len(body), stored[0], want)
		}
	}
}

// packedWith returns the marker an imported body of n bytes is packed with.
func packedWith(n int) byte {
	if n > zstdAbove {
		return DictMarker
	}
	return DictS2Marker
}

// TestImportedBodiesShareTheBuffer: with the buffer of the body before passed back, as
// msgbody.Builder and SQLite's bodyReader do, each body still packs and reads as itself.
func TestImportedBodiesShareTheBuffer(t *testing.T) {
	var packed, unpacked []byte
	for kind, body := range importedKinds {
		stored := PackImported(packed, []byte(body))
		if IsPacked(stored) {
			packed = stored
		}
		got, err := Unpack(unpacked, stored)
		if err != nil || string(got) != body {
			t.Fatalf("%s: read back as %q, %v", kind, got, err)
		}
		if IsPacked(stored) {
			unpacked = got
		}
	}
}

// TestDamagedImportedBodiesAreErrBadBody: a zstd frame cut short or changed (its checksum
// tells), an s2 block cut short, and either naming a dictionary this build does not have,
// are ErrBadBody, not a panic or a wrong body.
func TestDamagedImportedBodiesAreErrBadBody(t *testing.T) {
	large := PackImported(nil, codeText(4*zstdAbove))
	small := PackImported(nil, []byte(importedKinds["reply"]))
	if large[0] != DictMarker || small[0] != DictS2Marker {
		t.Fatalf("bodies of %d and %d bytes packed with %#x and %#x", 4*zstdAbove, len(importedKinds["reply"]), large[0], small[0])
	}
	flipped := bytes.Clone(large)
	flipped[len(flipped)/2] ^= 0xff
	for name, damaged := range map[string][]byte{
		"the zstd marker alone":             {DictMarker},
		"a zstd frame cut short":            large[:len(large)/2],
		"a zstd frame with a byte changed":  flipped,
		"not a zstd frame":                  append([]byte{DictMarker}, "not zstd at all"...),
		"a zstd frame's unknown dictionary": unknownDictBody(t),
		"the s2 marker alone":               {DictS2Marker},
		"an s2 block cut short":             small[:len(small)/2],
		"an s2 block's unknown dictionary":  append([]byte{DictS2Marker, 99}, small[2:]...),
		"an s2 block claiming 4 GB":         {DictS2Marker, importDict, 0xff, 0xff, 0xff, 0xff, 0x0f},
	} {
		if got, err := Unpack(nil, damaged); !errors.Is(err, ErrBadBody) {
			t.Errorf("%s: %d bytes, %v; want ErrBadBody", name, len(got), err)
		}
	}
}

// unknownDictBody returns a body packed as an imported one but with a dictionary (id 99)
// that dictionaries does not hold.
func unknownDictBody(t testing.TB) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(99, []byte(`{"type":"text","text":"`)))
	if err != nil {
		t.Fatal(err)
	}
	return enc.EncodeAll([]byte(importedKinds["reply"]), []byte{DictMarker})
}
