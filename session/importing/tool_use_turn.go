package importing

import "github.com/sessionkeep/sessionkeep/session"

// toolUseTurn returns the turn of the record of session sessionID holding the tool_use
// block toolUseID; found is false when there is none.
func toolUseTurn(log session.MessageLog, sessionID, toolUseID string) (turn int64, found bool, err error) {
	seq, found, err := log.ToolUseSeq(sessionID, toolUseID)
	if !found || err != nil {
		return 0, false, err
	}
	found = false
	err = log.ScanMessagesFrom(sessionID, seq, func(m *session.StoredMessage) error {
		turn, found = m.Turn, m.Seq == seq
		return session.StopScan
	})
	return turn, found, err
}
