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
}

// tail(session, n) -> JSON array of the last n envelopes
func tailSync(c *native.Call) (native.Value, error) {
	s, n, err := tailArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	b, err := s.Tail(n, true)
	if err != nil {
		return native.Value{}, err
	}
	return c.StringFromBytes(b), nil
}

// tailAsync(session, n) -> Promise<JSON array of the last n envelopes>, read off the JS
// thread.
func tailAsync(c *native.Call) (native.Value, error) {
	s, n, err := tailArgs(c)
	if err != nil {
		return native.Value{}, err
	}
	return c.Promise(func() (native.Settler, error) {
		b, err := s.Tail(n, true)
		return func(sc *native.Scope) (native.Value, error) { return sc.StringFromBytes(b), nil }, err
	})
}

func tailArgs(c *native.Call) (*session.Session, int, error) {
	s, err := sessionArg(c)
	if err != nil {
		return nil, 0, err
	}
	n, err := c.NumberArg(1, "n")
	if err != nil {
		return nil, 0, err
	}
	if n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
		return nil, 0, fmt.Errorf("%w: n must be a non-negative integer, got %v", session.ErrInvalidArgument, n)
	}
	return s, int(n), nil
}
