package transcript

import (
	"crypto/sha256"
	"fmt"
)

// SyntheticUUID returns the id of a record that has none of its own: a UUID (version 8, the
// version for ids made by an application's own rule) from a hash of the session, the line
// and how many identical lines came before it in the file. The same file always gives the
// same ids, so importing it again finds its records already there.
func SyntheticUUID(sessionID string, line []byte, occurrence int) string {
	h := sha256.New()
	fmt.Fprintf(h, "sessionkeep\x00%s\x00%d\x00", sessionID, occurrence)
	h.Write(line)
	b := h.Sum(nil)[:16]
	b[6] = b[6]&0x0f | 0x80 // version 8
	b[8] = b[8]&0x3f | 0x80 // RFC 9562 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Occurrences counts identical lines, for SyntheticUUID. A line is known by half of its
// SHA-256 (a collision of 128 bits is as unlikely as one of the uuids they make), and
// counted in 32 bits: a rollout of gigabytes has a million lines or more, each one entry.
type Occurrences map[[16]byte]uint32

// Next returns how many times line was seen before, and counts it.
func (o Occurrences) Next(line []byte) int {
	key := lineKey(line)
	n := o[key]
	o[key] = n + 1
	return int(n)
}
