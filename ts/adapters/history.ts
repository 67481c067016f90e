import type { Session } from '../session';
import type { Block, Envelope } from '../types';

/**
 * An SDK history (the OpenAI Agents SDK's items, an AI SDK chat's UIMessages) lives in a
 * sessionkeep session after a `history_start` record: a user message holding the block
 * `{ type: 'history_start', by }`. sessionkeep never rewrites what it stored, so removing
 * from such a history is a rewind: to the record before the removed one, or to the
 * history_start record to empty it. What was removed stays in session.tree(), off the branch.
 */
export interface HistoryStartBlock {
  type: 'history_start';
  /** Which SDK's history follows: 'openai-agents', 'ai-sdk-chat'. */
  by: string;
  [extra: string]: unknown;
}

/**
 * A change of an SDK history that holds no items (an OpenAI Agents transaction that only
 * removes): a user message holding `{ type: 'history_change', by }` with the change's tags.
 */
export interface HistoryChangeBlock {
  type: 'history_change';
  /** Which SDK's history it changes: 'openai-agents'. */
  by: string;
  [extra: string]: unknown;
}

/** The main-chain records of a history on the branch at the head, after its start. */
export interface HistoryRecords {
  /** The history_start record's uuid; undefined before anything was added. */
  start: string | undefined;
  records: Envelope[];
}

/** historyRecords reads the history `by` on the branch at the session's head. */
export function historyRecords(session: Session, by: string): HistoryRecords {
  const envelopes = session.envelopes().filter((e) => !e.isSidechain);
  let at = -1;
  envelopes.forEach((e, i) => {
    if (e.message?.content.some((b) => b.type === 'history_start' && b.by === by)) at = i;
  });
  return at < 0 ? { start: undefined, records: [] } : { start: envelopes[at].uuid, records: envelopes.slice(at + 1) };
}

/** startHistory records the history_start record and gives its uuid. */
export function startHistory(session: Session, by: string): string {
  const block: HistoryStartBlock = { type: 'history_start', by };
  return session.appendUserMessage([block]).uuid;
}

/** blocksWith are a record's blocks that carry `field`, in order. */
export function blocksWith(record: Envelope, field: string): Block[] {
  return record.message?.content.filter((b) => b[field] !== undefined) ?? [];
}
