/**
 * The per-message state an envelope carries beside the message (seed 002): where the agent
 * ran, its todo list and thinking settings at that message, and, for a subagent's
 * messages, the sidechain they are on. Everything here is stored verbatim.
 */

/** Where the agent ran when a message was recorded. Other keys are kept as given. */
export interface MessageContext {
  cwd?: string;
  gitBranch?: string;
  platform?: string;
  [extra: string]: unknown;
}

/** One item of an agent's todo list, as Claude Code writes it; any other shape is kept too. */
export interface TodoItem {
  content?: string;
  status?: 'pending' | 'in_progress' | 'completed' | string;
  activeForm?: string;
  [extra: string]: unknown;
}

/** Extended-thinking settings at a message, as Claude Code writes them. */
export interface ThinkingMetadata {
  level?: 'none' | 'low' | 'medium' | 'high' | string;
  disabled?: boolean;
  triggers?: unknown[];
  [extra: string]: unknown;
}

/**
 * MessageOptions give a new message its state: the options of appendUserMessage() and the
 * extra fields of a message_start chunk.
 */
export interface MessageOptions {
  /** A subagent's message: shown by envelopes(), left out of messages(). Implied by agentId or parentToolUseId. */
  isSidechain?: boolean;
  /** The subagent's id. */
  agentId?: string;
  /** The tool call that started the subagent. */
  parentToolUseId?: string;
  /** Replaces the session's context (session.setContext()) for this message. */
  context?: MessageContext | null;
  /** The todo list at this message. */
  todos?: TodoItem[] | null;
  thinkingMetadata?: ThinkingMetadata | null;
}

/** Where an imported record came from, with the fields of it sessionkeep does not model. */
export interface RecordSource {
  format: 'claude-code' | 'codex' | string;
  /** The record's own fields beside the message, verbatim (for a Claude Code line: version, isMeta, slug, …). */
  record: Record<string, unknown>;
  [extra: string]: unknown;
}
