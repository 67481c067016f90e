package bridge

import (
	"fmt"
	"math"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

func init() {
	native.Register("tail", tailSync)
	native.Register("tailAsync", tailAsync)
	native.Register("lastEnvelopeAsync", lastEnvelopeAsync)
}

// tail(session, n) -> JSON arrays of the last n envelopes (see readSync)
func tailSync(c *native.Call) (native.Value, error) {
	s, n, err := tailArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	return readSync(c, s, true, n)
}

// tailAsync(session, n, onPart) -> Promise<void>: the last n envelopes, read off the JS
// thread and passed to onPart in parts (see readStream).
func tailAsync(c *native.Call) (native.Value, error) {
	s, n, err := tailArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	return readStream(c, s, true, n, c.Arg(2))
}

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER: any n up to it is taken (an n
// beyond the session's length reads all of it).
const maxSafeInteger = 1<<53 - 1

func tailArgs(c *native.Call) (*session.Session, int, error) {
	s, err := sessionArg(c)
	if err != nil {
		return nil, 0, err
	}
	n, err := c.NumberArg(1, "n")
	if err != nil {
		return nil, 0, err
	}
	if n < 0 || n != math.Trunc(n) || n > maxSafeInteger {
		return nil, 0, fmt.Errorf("%w: n must be a non-negative integer, got %v", session.ErrInvalidArgument, n)
	}
	return s, int(n), nil
}

// lastEnvelopeAsync(session) -> Promise<JSON of the last envelope, or "null">, read off
// the JS thread.
func lastEnvelopeAsync(c *native.Call) (native.Value, error) {
	s, err := sessionArg(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		b, err := s.LastEnvelope()
		return func(sc *native.Scope) (native.Value, error) { return sc.StringFromBytes(b), nil }, err
	})
}
