package session

import (
	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/blocks"
)

// EnvelopeExtra are the envelope fields a message may carry beside the standard ones, kept
// as a JSON object with the message (StoredMessage.Extra) and shown in its envelope.
type EnvelopeExtra struct {
	// AgentID and ParentToolUseID describe the sidechain of a subagent's message.
	AgentID         string `json:"agentId,omitempty"`
	ParentToolUseID string `json:"parentToolUseId,omitempty"`
	// Context, Todos and ThinkingMetadata are the message's state, JSON kept verbatim.
	Context          json.RawMessage `json:"context,omitempty"`
	Todos            json.RawMessage `json:"todos,omitempty"`
	ThinkingMetadata json.RawMessage `json:"thinkingMetadata,omitempty"`
	// ToolUseResults holds the raw execution record of each tool result, by tool_use_id.
	ToolUseResults map[string]json.RawMessage `json:"toolUseResults,omitempty"`
	// Error is the message of the stream error that ended the message.
	Error string `json:"error,omitempty"`
	// Source is where an imported record came from: {format, record, …}, the fields of the
	// source record that the envelope does not hold otherwise, verbatim.
	Source json.RawMessage `json:"source,omitempty"`
}

// Encode returns e as a JSON object.
func (e EnvelopeExtra) Encode() []byte { return blocks.MustJSON(e) }
