package contextbuild

import (
	"fmt"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Validation is the verdict of ValidateContext.
type Validation struct {
	Valid    bool      `json:"valid"`
	Problems []Problem `json:"problems"`
}

// Problem is one rule a context breaks. Index is the message's position, -1 for the whole.
type Problem struct {
	Index   int    `json:"index"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Problem codes.
const (
	ProblemNotArray          = "NOT_AN_ARRAY"
	ProblemEmpty             = "EMPTY_CONTEXT"
	ProblemInvalidMessage    = "INVALID_MESSAGE"
	ProblemInvalidRole       = "INVALID_ROLE"
	ProblemUnexpectedField   = "UNEXPECTED_FIELD"
	ProblemEmptyContent      = "EMPTY_CONTENT"
	ProblemFirstNotUser      = "FIRST_NOT_USER"
	ProblemRolesNotAlternate = "ROLES_NOT_ALTERNATING"
	ProblemInvalidBlock      = "INVALID_BLOCK"
	ProblemEmptyText         = "EMPTY_TEXT"
	ProblemUnsignedThinking  = "UNSIGNED_THINKING"
	ProblemMisplacedBlock    = "MISPLACED_BLOCK"
	ProblemInvalidToolUseID  = "INVALID_TOOL_USE_ID"
	ProblemDuplicateToolUse  = "DUPLICATE_TOOL_USE_ID"
	ProblemMissingToolResult = "MISSING_TOOL_RESULT"
	ProblemOrphanToolResult  = "ORPHAN_TOOL_RESULT"
	ProblemDuplicateResult   = "DUPLICATE_TOOL_RESULT"
	ProblemResultNotFirst    = "TOOL_RESULT_NOT_FIRST"
	ProblemInvalidToolCall   = "INVALID_TOOL_CALL"
)

// validator collects the problems of one context.
type validator struct{ problems []Problem }

func (v *validator) add(index int, code, format string, args ...any) {
	v.problems = append(v.problems, Problem{Index: index, Code: code, Message: fmt.Sprintf(format, args...)})
}

// rawMessage is a message decoded one level deep.
type rawMessage map[string]json.RawMessage

func (m rawMessage) str(key string) (string, bool) {
	var s string
	v, ok := m[key]
	return s, ok && len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil
}

// ValidateContext checks messages (a JSON array) against the rules of provider's API:
// "anthropic" (Messages) or "openai" (Chat Completions). It checks structure, roles,
// content and tool call pairing, not model-specific limits.
func ValidateContext(messages []byte, provider string) (Validation, error) {
	var msgs []rawMessage
	v := &validator{}
	switch {
	case provider != tokens.ProviderAnthropic && provider != tokens.ProviderOpenAI:
		return Validation{}, fmt.Errorf("%w: format must be %q or %q, not %q", session.ErrInvalidArgument, tokens.ProviderAnthropic, tokens.ProviderOpenAI, provider)
	case json.Unmarshal(messages, &msgs) != nil:
		v.add(-1, ProblemNotArray, "messages must be an array of message objects")
	case len(msgs) == 0:
		v.add(-1, ProblemEmpty, "there must be at least one message")
	case provider == tokens.ProviderAnthropic:
		v.anthropic(msgs)
	default:
		v.openAI(msgs)
	}
	return Validation{Valid: len(v.problems) == 0, Problems: append([]Problem{}, v.problems...)}, nil
}
