package bodycodec

import (
	"bytes"
	"errors"
	"testing"
)

// TestImportedExtraPacksOnlyWhenLong: a short extra column stays plain JSON, a long one is
// packed with the dictionary and smaller, both read back as written, and a damaged packed
// one is ErrBadBody rather than other text.
func TestImportedExtraPacksOnlyWhenLong(t *testing.T) {
	short := []byte(`{"parentToolUseId":"toolu_1"}`)
	long := []byte(`{"source":{"format":"codex","record":{"payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100621,"cached_input_tokens":89472,"output_tokens":4410}}},"type":"event_msg"}}}`)
	if got := PackImportedExtra(short); !bytes.Equal(got, short) {
		t.Errorf("a %d-byte extra was stored as %q", len(short), got)
	}
	packed := PackImportedExtra(long)
	if !IsDictPacked(packed) || len(packed) >= len(long) {
		t.Fatalf("a %d-byte extra was stored as %d bytes, packed %v", len(long), len(packed), IsDictPacked(packed))
	}
	for _, stored := range [][]byte{short, packed} {
		got, err := UnpackExtra(stored)
		if err != nil || (!bytes.Equal(got, short) && !bytes.Equal(got, long)) {
			t.Errorf("extra %q read back as %q, %v", stored, got, err)
		}
	}
	if _, err := UnpackExtra(packed[:len(packed)-3]); !errors.Is(err, ErrBadBody) {
		t.Errorf("a cut packed extra: %v, want ErrBadBody", err)
	}
}
