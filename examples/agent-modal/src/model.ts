import type { Message, Session, Summarizer } from 'sessionkeep';

/**
 * Model is whatever plays the assistant. `reply` streams one assistant message, answering
 * `conversation`, into `session`: the agent loop then runs the tool calls it ends with.
 */
export interface Model {
  /** Shown in the status line. */
  readonly label: string;
  /** Stored with the session. */
  readonly provider: string;
  readonly model: string;
  readonly contextWindow: number;
  reply(conversation: Message[], session: Session, signal: AbortSignal): Promise<void>;
  /** Summarizes older messages for a compaction (/compact, or automatically at the threshold). */
  summarize: Summarizer;
}
