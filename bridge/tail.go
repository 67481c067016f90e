package bridge

import "github.com/sessionkeep/sessionkeep/native"

func init() {
	native.Register("lastEnvelopeAsync", lastEnvelopeAsync)
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
