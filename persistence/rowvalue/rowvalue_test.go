package rowvalue

import "testing"

// TestBytes: text comes as its bytes whether the driver gave a string or []byte; NULL and
// values that are not text are nil.
func TestBytes(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []byte
	}{
		{"text", []byte("text")},
		{[]byte("blob"), []byte("blob")},
		{nil, nil},
		{int64(7), nil},
	} {
		if got := Bytes(c.v); string(got) != string(c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("Bytes(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}
