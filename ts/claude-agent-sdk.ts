/**
 * sessionkeep/claude-agent-sdk: a SessionStore for the Claude Agent SDK
 * (`@anthropic-ai/claude-agent-sdk`) whose transcripts are sessionkeep sessions. See docs/api.md.
 */
export { SessionkeepSessionStore } from './adapters/claude-agent-sdk-store';
