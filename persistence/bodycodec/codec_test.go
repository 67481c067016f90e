package bodycodec

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// codeText returns about n bytes of code-like text that packs well, as a tool's output does.
func codeText(n int) []byte {
	line := "func handler(w http.ResponseWriter, r *http.Request) { return nil } // line\n"
	return []byte(strings.Repeat(line, n/len(line)+1))
}

func TestPackKeepsSmallAndIncompressibleBodiesPlain(t *testing.T) {
	small := []byte(`{"type":"user","message":{"content":[]}}`)
	if got := Pack(nil, small, LivePackAbove); !bytes.Equal(got, small) {
		t.Errorf("a %d-byte body was stored as %q", len(small), got)
	}
	noise := make([]byte, 3*LivePackAbove)
	rand.Read(noise)
	random := []byte(`{"text":"` + base64.StdEncoding.EncodeToString(noise) + `"}`)
	if got := Pack(nil, random, LivePackAbove); !bytes.Equal(got, random) {
		t.Errorf("a body s2 cannot shrink was stored packed: %d bytes for %d", len(got), len(random))
	}
	for _, plain := range [][]byte{small, random} {
		if got, err := Unpack(nil, plain); err != nil || !bytes.Equal(got, plain) {
			t.Errorf("a plain body did not read as itself: %v", err)
		}
	}
}

// TestPackBodyPacksABodyOverTheThresholdItIsGiven: a body of 2 KB, the size of an
// assistant reply with its tool calls, is packed when the threshold is under it (round 5's
// 1 KB).
func TestPackPacksABodyOverTheThresholdItIsGiven(t *testing.T) {
	body := codeText(2048)
	packed := Pack(nil, body, 1024)
	if !IsPacked(packed) || len(packed) >= len(body) {
		t.Fatalf("a %d-byte body of code was stored as %d bytes, packed %v", len(body), len(packed), IsPacked(packed))
	}
	if got, err := Unpack(nil, packed); err != nil || !bytes.Equal(got, body) {
		t.Fatalf("unpacked body differs from the original: %v", err)
	}
}

func TestPackRoundTripsALargeBody(t *testing.T) {
	body := codeText(4 * LivePackAbove)
	packed := Pack(nil, body, LivePackAbove)
	if packed[0] != PackedMarker || len(packed) > len(body)/2 {
		t.Fatalf("a %d-byte body of code was stored as %d bytes starting with %#x", len(body), len(packed), packed[0])
	}
	got, err := Unpack(nil, packed)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("unpacked body differs from the original: %v", err)
	}
	for name, damaged := range map[string][]byte{
		"a length of 4 GB":       {PackedMarker, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"a copy before any byte": {PackedMarker, 10, 0x01, 0x00},
		"cut short":              packed[:len(packed)/2],
	} {
		if _, err := Unpack(nil, damaged); !errors.Is(err, ErrBadBody) {
			t.Errorf("a damaged packed body (%s): %v, want ErrBadBody", name, err)
		}
	}
}
