package bridge

import "github.com/sessionkeep/sessionkeep/native"

// __panicForTest panics inside an exported function, so the tests can prove a Go panic
// becomes a thrown SessionError with code INTERNAL and the process goes on.
func init() {
	native.Register("__panicForTest", func(c *native.Call) (native.Value, error) {
		panic("deliberate panic for the test suite")
	})
}
