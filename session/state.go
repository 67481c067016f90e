package session

import (
	"bytes"
	"fmt"

	"github.com/goccy/go-json"
)

// MessageOptions is the per-message state (seed 002) a new message may be given: where the
// agent ran (Context), its todo list and thinking settings at that message, and, for a
// subagent's messages, the sidechain they belong to. JSON-valued fields are kept verbatim.
type MessageOptions struct {
	// IsSidechain marks a subagent's message: kept and shown in envelopes, left out of the
	// main conversation. AgentID or ParentToolUseID imply it.
	IsSidechain *bool `json:"isSidechain"`
	// AgentID names the subagent; ParentToolUseID is the tool call that started it.
	AgentID         string `json:"agentId"`
	ParentToolUseID string `json:"parentToolUseId"`
	// Context replaces the session's context (SetContext) for this message: an object such
	// as {cwd, gitBranch, platform}.
	Context json.RawMessage `json:"context"`
	// Todos is the todo list at this message, an array; ThinkingMetadata an object.
	Todos            json.RawMessage `json:"todos"`
	ThinkingMetadata json.RawMessage `json:"thinkingMetadata"`
}

// ParseMessageOptions decodes and checks options given as a JSON object; empty input is no
// options. A malformed option is reported as an error naming it, wrapped by the caller in
// the sentinel of its operation.
func ParseMessageOptions(raw []byte) (MessageOptions, error) {
	var o MessageOptions
	if len(bytes.TrimSpace(raw)) == 0 {
		return o, nil
	}
	if raw[0] != '{' {
		return o, fmt.Errorf("options must be an object")
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return o, fmt.Errorf("options: %v", err)
	}
	return o, o.check()
}

func (o *MessageOptions) check() error {
	o.Context = NullToNil(o.Context)
	o.Todos = NullToNil(o.Todos)
	o.ThinkingMetadata = NullToNil(o.ThinkingMetadata)
	switch {
	case o.Context != nil && o.Context[0] != '{':
		return fmt.Errorf("field 'context' must be an object")
	case o.Todos != nil && o.Todos[0] != '[':
		return fmt.Errorf("field 'todos' must be an array")
	case o.ThinkingMetadata != nil && o.ThinkingMetadata[0] != '{':
		return fmt.Errorf("field 'thinkingMetadata' must be an object")
	case o.IsSidechain != nil && !*o.IsSidechain && (o.AgentID != "" || o.ParentToolUseID != ""):
		return fmt.Errorf("'agentId' and 'parentToolUseId' belong to sidechain messages, but 'isSidechain' is false")
	}
	return nil
}

// sidechain returns the sidechain the options put a message on.
func (o MessageOptions) sidechain() sidechain {
	on := o.AgentID != "" || o.ParentToolUseID != "" || (o.IsSidechain != nil && *o.IsSidechain)
	if !on {
		return sidechain{}
	}
	return sidechain{on: true, agentID: o.AgentID, parentToolUseID: o.ParentToolUseID}
}

// NullToNil returns raw without surrounding space, or nil when it is empty or a JSON
// null: how an absent field and a null one are treated alike, by the checks of package
// snapshots too.
func NullToNil(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	return raw
}

// sidechain is the chain a message is on: the main conversation (on is false) or a
// subagent's. Each chain links its messages by parentUuid on its own.
type sidechain struct {
	on              bool
	agentID         string
	parentToolUseID string
}

// key names the chain among the session's chains.
func (c sidechain) key() string {
	switch {
	case !c.on:
		return ""
	case c.agentID != "":
		return "agent:" + c.agentID
	default:
		return "tool:" + c.parentToolUseID
	}
}

// SetContext sets the context (an object such as {cwd, gitBranch, platform}, kept verbatim)
// stamped on every message that begins after the call; nil or null clears it.
func (s *Session) SetContext(context []byte) error {
	context = NullToNil(context)
	if context != nil && (context[0] != '{' || !json.Valid(context)) {
		return fmt.Errorf("%w: context must be an object or null", ErrInvalidArgument)
	}
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.asm.context = bytes.Clone(context)
	return nil
}
