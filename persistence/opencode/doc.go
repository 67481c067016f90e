// Package opencode reads OpenCode's store: the SQLite database of newer versions
// (~/.local/share/opencode/opencode.db: tables session, message and part, each row's fields
// in a JSON data column) and the JSON files of older ones (storage/session/…/<session>.json,
// storage/message/<session>/<message>.json, storage/part/<message>/<part>.json), and what
// `opencode export <session>` prints (the session's info, each message's info and parts). Every
// session becomes a session: a message's parts in order, text as text, reasoning as
// thinking (with the provider's signature when OpenCode kept it), files as images or
// documents, a tool part as a tool_use block and its output or error as a tool_result
// record after the step that called it; a step's tokens are the usage of its request.
// Parts that are not content (step-start, step-finish, snapshot, patch, agent, subtask,
// retry, compaction, and any kind added later) stay verbatim in the record's source.
package opencode

// Format is the name of the format in envelopes' source and in the API.
const Format = "opencode"

// DatabaseName is the name OpenCode gives its database.
const DatabaseName = "opencode.db"
