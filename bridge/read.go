package bridge

import (
	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// partSize is about how much JSON crosses to JavaScript at once when messages are read:
// each part is a JSON array that JSON.parse takes in about a millisecond, so an async read
// holds the event loop that long at a time. Parts of 1 MB took 3 ms each and made the p99
// event-loop delay of an async restore of 20,000 messages 12.8 ms; at 256 KB it is 8 ms, the
// rest being V8's scavenges of the parsed objects (see bench/README.md).
const partSize = 256 << 10

// readSync encodes the last n messages of s (all when n < 0) and returns them as a
// JavaScript array of ASCII JSON strings, each an array of messages.
func readSync(c *native.Call, s *session.Session, withEnvelope bool, n int) (native.Value, error) {
	var parts [][]byte
	err := s.EncodeParts(withEnvelope, n, partSize, func(part []byte) ([]byte, error) {
		parts = append(parts, part)
		return nil, nil
	})
	if err != nil {
		return native.Value{}, err
	}
	return c.StringsFromASCII(parts), nil
}

// readStream encodes the last n messages of s (all when n < 0) off the JS thread and
// passes each part, an ASCII JSON string, to onPart; the Promise it returns settles when
// every part has been passed. While JavaScript parses one part, the next is encoded.
func readStream(c *native.Call, s *session.Session, withEnvelope bool, n int, onPart native.Value) (native.Value, error) {
	return c.Stream(onPart, func(emit func(native.Settler) error) error {
		var spare []byte // the part before the last, taken by JavaScript once emit returns
		return s.EncodeParts(withEnvelope, n, partSize, func(part []byte) ([]byte, error) {
			err := emit(func(sc *native.Scope) (native.Value, error) { return sc.StringFromASCII(part), nil })
			next := spare
			spare = part
			return next, err
		})
	})
}
