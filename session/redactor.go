package session

import "strings"

// Redactor replaces secrets in tool inputs and outputs before they are stored (package
// redact has the one the addon uses): the Manager's plug-in, like its TokenCounter. Each
// method returns what it replaced in and how many secrets it replaced; what it was given
// when there were none.
type Redactor interface {
	// Block redacts a content block when it is a tool block (IsToolBlock), the values of
	// its strings only; any other block comes back as it is.
	Block(block []byte) ([]byte, int)
	// JSON redacts the string values of the JSON value v.
	JSON(v []byte) ([]byte, int)
}

// storeAsIs is the Redactor of a Manager that does not redact: tool inputs and outputs are
// stored as they came.
type storeAsIs struct{}

func (storeAsIs) Block(block []byte) ([]byte, int) { return block, 0 }
func (storeAsIs) JSON(v []byte) ([]byte, int)      { return v, 0 }

// redacts reports whether the Manager was given a Redactor.
func (m *Manager) redacts() bool {
	_, asIs := m.redactor.(storeAsIs)
	return !asIs
}

// IsToolBlock reports whether a block of this type carries a tool's input or output:
// tool_use and tool_result, and the server and MCP tool blocks (server_tool_use,
// web_search_tool_result, mcp_tool_use, …).
func IsToolBlock(typ string) bool {
	return strings.Contains(typ, "tool")
}

// redact counts the redactions made in what it returns, in the session's listing: with the
// Ops of the step that redacted them (record), so that a step stays one store write.
func (s *Session) redact(v []byte, n int) []byte {
	if n > 0 {
		s.record(AddRedactions{SessionID: s.id, Count: n})
	}
	return v
}

// redactBlock redacts a block as the Manager's Redactor does, counting what it replaced.
func (s *Session) redactBlock(block []byte) []byte { return s.redact(s.mgr.redactor.Block(block)) }

// redactJSON redacts a JSON value as the Manager's Redactor does, counting what it replaced.
func (s *Session) redactJSON(v []byte) []byte { return s.redact(s.mgr.redactor.JSON(v)) }

// redacts reports whether the session's Manager redacts.
func (s *Session) redacts() bool { return s.mgr.redacts() }
