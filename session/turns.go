package session

// Turn is one user→assistant exchange: the prompt, the assistant messages, and the tool
// results they called for. Indexes are positions in Session.Messages, inclusive.
type Turn struct {
	Index      int64 `json:"index"`
	StartIndex int64 `json:"startIndex"`
	EndIndex   int64 `json:"endIndex"`
}

// nextTurn returns the turn number of a message: a prompt (a user message that is not
// only tool results) starts a new turn, everything else belongs to the current one. The
// first message is turn 0 whatever it is.
func nextTurn(last int64, first, prompt bool) int64 {
	if first {
		return 0
	}
	if prompt {
		return last + 1
	}
	return last
}
