package sqlite

import "github.com/sessionkeep/sessionkeep/session"

// batchMessage names a message by its session's id, as Ops do.
type batchMessage struct {
	sessionID string
	seq       int64
}

// endingInBatch returns the messages that begin and end in batch with no management Op
// between (a close or a delete makes the writer forget what it holds of a session's
// messages). Their blocks need no journal rows: the batch commits as a whole, and the
// message is stored once, as its body, by the Op that ends it.
func endingInBatch(batch []session.Op) map[batchMessage]bool {
	var begun, ending map[batchMessage]bool
	for _, op := range batch {
		switch op := op.(type) {
		case session.BeginMessage:
			if begun == nil {
				begun = map[batchMessage]bool{}
			}
			begun[batchMessage{op.SessionID, op.Header.Seq}] = true
		case session.EndMessage:
			key := batchMessage{op.SessionID, op.Seq}
			if begun[key] {
				if ending == nil {
					ending = map[batchMessage]bool{}
				}
				ending[key] = true
			}
		case session.ManagementOp, session.ForkSession:
			clear(begun)
		}
	}
	return ending
}
