// Package gemini reads Gemini CLI's chat files (~/.gemini/tmp/<project>/chats/session-*):
// the JSONL of newer versions (a metadata line, then message records, $set metadata
// updates and $rewindTo rewinds, a message written again whenever it changes) and the one
// JSON ConversationRecord of older ones; and the checkpoints /chat save writes
// (checkpoint-<tag>.json: the history as the Gemini API was sent it, without ids, times,
// usage or model). Their messages (user, gemini, info, error, warning) become the
// conversation: a gemini message's thoughts become thinking blocks, its tool calls
// tool_use blocks, and their results the tool_result blocks of a record after it; its
// token counts are the usage of its request. Messages are read as Gemini CLI reads them
// back: the latest version of each, without the ones a rewind removed.
package gemini

// Format is the name of the format in envelopes' source and in the API.
const Format = "gemini"

// Provider is the provider of the sessions read from Gemini CLI.
const Provider = "google"
