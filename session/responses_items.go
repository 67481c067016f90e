package session

import "strings"

// isResponsesItem reports whether a block of this type is an OpenAI Responses item kept
// verbatim (by the Codex import or the OpenAI stream adapter): a reasoning item, a
// compaction, or a call or output of a hosted tool (web_search_call, …). Neither the
// Messages API nor Chat Completions takes one back, so contexts leave them out; no Messages
// API block type ends in _call or _output.
func isResponsesItem(typ string) bool {
	switch typ {
	case "reasoning", "compaction", "compaction_summary":
		return true
	}
	return strings.HasSuffix(typ, "_call") || strings.HasSuffix(typ, "_output")
}
