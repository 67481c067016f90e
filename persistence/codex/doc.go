// Package codex reads Codex CLI rollouts: JSONL files of records {timestamp, type,
// payload} (session_meta, response_item, event_msg, turn_context). The model's items and
// the user's messages (response_item) become the conversation, in the Anthropic block
// names sessionkeep keeps: text, tool_use for a function call, tool_result for its output,
// image; a reasoning item is kept verbatim as a block of type "reasoning" (encrypted
// content included). Every other record is kept as a record that is not a message.
package codex

// Format is the name of the format in envelopes' source and in the API.
const Format = "codex"

// Provider is the provider of the sessions read from Codex rollouts.
const Provider = "openai"
