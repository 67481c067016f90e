// Package interop imports transcripts of other agents (Claude Code, Codex CLI, Gemini
// CLI, OpenCode, aider) and sessionkeep's own exports into a store, and exports a stored
// session in sessionkeep's and Claude Code's formats and as Markdown. The formats
// themselves live in their own packages; this one finds the files, reads each with its
// format, hands the records to the session Manager, and reports progress.
package interop
