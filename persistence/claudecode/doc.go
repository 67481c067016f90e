// Package claudecode reads and writes Claude Code transcripts: JSONL files of records
// (user, assistant, summary, system, progress, queue-operation, file-history-snapshot, …)
// linked by uuid and parentUuid, as Claude Code 1.0.x to 2.1.x write them, with subagent
// transcripts beside their parent (<session>/subagents/agent-<id>.jsonl).
//
// Every record becomes one importing.Record and keeps its uuid, parentUuid and timestamp.
// What the envelope models is moved into it (the message, cwd and gitBranch as the
// context, todos, thinkingMetadata, agentId, requestId, the tool execution record); every
// other field stays verbatim under the envelope's source, so that Write gives back each
// record field for field. An assistant message that Claude Code wrote one block per line
// is kept as those lines, each after the first marked to continue the one before, and the
// conversation joins them back by message id.
package claudecode

// Format is the name of the format in envelopes' source and in the API.
const Format = "claude-code"
