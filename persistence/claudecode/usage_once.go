package claudecode

import (
	"crypto/sha256"

	"github.com/sessionkeep/sessionkeep/session/importing"
)

// responseName is the API response an assistant record is part of, its message id and the
// request id Claude Code writes beside it kept as half a SHA-256 of the two, so that a
// transcript of gigabytes is noted in bounded memory. named is false when the record names
// neither.
type responseName struct {
	id    [16]byte
	named bool
}

// responseOf names r's API response, hashed once when the record is converted.
func responseOf(r *importing.Record, info *recordInfo) responseName {
	if info.messageID == "" && r.RequestID == "" {
		return responseName{}
	}
	sum := sha256.Sum256([]byte(info.messageID + "\x00" + r.RequestID))
	var n responseName
	copy(n.id[:], sum[:16])
	n.named = true
	return n
}

// responseCarriers maps each API response of a file (its responseName's id) to the place in
// the file (counting the records read) of the last record that carries its usage.
// Claude Code writes a response's lines again under new uuids after some events (the same
// message.id and requestId, the same usage), and writes a tool's result between two lines
// of the response that called it; each of those copies would otherwise count the
// response's tokens once more. The last line is the one kept: it carries the final output
// count.
type responseCarriers map[[16]byte]int

// note records that record i carries the usage info holds, when its response is named.
func (rc responseCarriers) note(info *recordInfo, i int) {
	if info.response.named && info.usage != nil {
		rc[info.response.id] = i
	}
}

// lastOnes returns which of the first n records read are the last carrier of their
// response: one bit a record, where the map holds an entry for every response.
func (rc responseCarriers) lastOnes(n int) carrierSet {
	set := make(carrierSet, (n+63)/64)
	for _, i := range rc {
		if i < n {
			set[i/64] |= 1 << (i % 64)
		}
	}
	return set
}

// carrierSet holds, a bit each, the records that keep their API response's usage.
type carrierSet []uint64

// has reports whether record i keeps its response's usage.
func (s carrierSet) has(i int) bool { return i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0 }

// countOnce takes record i's usage off unless it is its response's last carrier.
func (s carrierSet) countOnce(r *importing.Record, info *recordInfo, i int) {
	if info.response.named && r.Usage != nil && !s.has(i) {
		r.Usage = nil
	}
}
