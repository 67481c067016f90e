package commitqueue

import "github.com/sessionkeep/sessionkeep/session"

// Bookkeeping reports whether op is the record of an access or a close, which sets only the
// listing's last access time, whether the session is open and its status: no read of records
// and no load of a session waits for it (see session.RecordSyncer).
func Bookkeeping(op session.Op) bool {
	switch op.(type) {
	case session.AccessSession, session.CloseSession:
		return true
	}
	return false
}

// RecordsThrough returns how many Ops a read of records must wait for once ops are queued
// behind queued earlier ones: the count through the last of ops that is not Bookkeeping, or
// ok false when every one of ops is.
func RecordsThrough(queued uint64, ops []session.Op) (through uint64, ok bool) {
	for i := len(ops) - 1; i >= 0; i-- {
		if !Bookkeeping(ops[i]) {
			return queued + uint64(i) + 1, true
		}
	}
	return 0, false
}
