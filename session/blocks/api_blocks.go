package blocks

import (
	"slices"

	"github.com/goccy/go-json"
)

// apiBlockFields lists, for each content block type the Messages API takes as input, the
// fields it accepts. Storage keeps any block and any field verbatim (a plug-in's copy of an
// SDK item, provider metadata, a marker); a context is what a provider is sent, and the API
// refuses a type it does not know ("does not match any of the expected tags") and a field
// it does not know ("Extra inputs are not permitted"). Chat Completions contexts are shaped
// from the same blocks, so the list serves both providers.
var apiBlockFields = map[string][]string{
	BlockText:                                {"text", "citations"},
	BlockImage:                               {"source"},
	BlockDocument:                            {"source", "title", "context", "citations"},
	"search_result":                          {"source", "title", "content", "citations"},
	BlockThinking:                            {"thinking", "signature"},
	BlockRedactedThinking:                    {"data"},
	BlockToolUse:                             {"id", "name", "input", "caller"},
	BlockToolResult:                          {"tool_use_id", "content", "is_error"},
	"server_tool_use":                        {"id", "name", "input", "caller"},
	"web_search_tool_result":                 {"tool_use_id", "content"},
	"web_fetch_tool_result":                  {"tool_use_id", "content"},
	"code_execution_tool_result":             {"tool_use_id", "content"},
	"bash_code_execution_tool_result":        {"tool_use_id", "content"},
	"text_editor_code_execution_tool_result": {"tool_use_id", "content"},
	"tool_search_tool_result":                {"tool_use_id", "content"},
	"mcp_tool_use":                           {"id", "name", "server_name", "input"},
	"mcp_tool_result":                        {"tool_use_id", "is_error", "content"},
	"container_upload":                       {"file_id"},
}

// APIBlockTakes reports whether the API takes a field of a block of type typ: every block
// takes its type and cache_control.
func APIBlockTakes(typ, field string) bool {
	return field == "type" || field == "cache_control" || slices.Contains(apiBlockFields[typ], field)
}

// IsAPIBlockType reports whether the Messages API takes blocks of type typ as input.
func IsAPIBlockType(typ string) bool {
	_, ok := apiBlockFields[typ]
	return ok
}

// APIBlockJSON returns raw with the fields the API does not take left out, and whether
// any were. raw is returned as it is, byte for byte, when every field is taken, so signed
// thinking and everything else a provider sent goes back exactly as stored.
func APIBlockJSON(typ string, raw []byte) ([]byte, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return raw, false
	}
	stripped := false
	for name := range fields {
		if !APIBlockTakes(typ, name) {
			delete(fields, name)
			stripped = true
		}
	}
	if !stripped {
		return raw, false
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return raw, false
	}
	return out, true
}
