// Package markdown writes a session as Markdown, for people to read: the conversation in
// order, thinking folded away, tool calls and their results in code blocks, a subagent's
// messages marked as such. It is an export only; nothing reads it back.
package markdown
