/**
 * sessionkeep/openai-agents: a durable Session for the OpenAI Agents SDK for JS
 * (`@openai/agents`), backed by a sessionkeep session. See docs/api.md.
 */
export { SessionkeepAgentsSession } from './adapters/openai-agents-session';
