package claudecode

import (
	"crypto/sha256"

	"github.com/sessionkeep/sessionkeep/session/importing"
)

// responseKey names the API response an assistant record is part of: its message id and
// the request id Claude Code writes beside it. It is "" when the record names neither.
func responseKey(r *importing.Record, info *recordInfo) string {
	if info.messageID == "" && r.RequestID == "" {
		return ""
	}
	return info.messageID + "\x00" + r.RequestID
}

// responseCarriers maps each API response of a file to the place in the file (counting
// the records read) of the last record that carries its usage, the response kept as half a
// SHA-256 of its responseKey, so a transcript of gigabytes is noted in bounded memory.
// Claude Code writes a response's lines again under new uuids after some events (the same
// message.id and requestId, the same usage), and writes a tool's result between two lines
// of the response that called it; each of those copies would otherwise count the
// response's tokens once more. The last line is the one kept: it carries the final output
// count.
type responseCarriers map[[16]byte]int

// responseID is the key of responseCarriers for a responseKey.
func responseID(key string) [16]byte {
	sum := sha256.Sum256([]byte(key))
	var id [16]byte
	copy(id[:], sum[:16])
	return id
}

// note records that record i, r, carries the usage info holds, when its response is named.
func (rc responseCarriers) note(r *importing.Record, info *recordInfo, i int) {
	if key := responseKey(r, info); key != "" && info.usage != nil {
		rc[responseID(key)] = i
	}
}

// countOnce takes record i's usage off unless it is its response's last carrier.
func (rc responseCarriers) countOnce(r *importing.Record, info *recordInfo, i int) {
	if key := responseKey(r, info); key != "" && r.Usage != nil && rc[responseID(key)] != i {
		r.Usage = nil
	}
}
