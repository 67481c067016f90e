import { createHash } from 'node:crypto';
import type { AgentInputItem } from '@openai/agents';
import type { Block, Envelope } from '../types';
import { SessionError } from '../errors';

/** The block field that keeps an item verbatim. */
export const ITEM = 'openai_item';
/** The block field naming the history change (transaction) that wrote the block, and its attempt. */
export const OP = 'openai_op';
/** The field of a change's last block that makes it count: the change is done. */
export const DONE = 'openai_op_done';

/** Which change, and which try of it, wrote a block. */
export interface OpTag {
  id: string;
  attempt: string;
}

/** What a done change did: its transaction's fingerprint, and how many items before it it replaced. */
export interface OpDone {
  fingerprint: string;
  replaces: number;
}

/** The items of a history, and the changes done on it by operation id. */
export interface FoldedHistory {
  items: AgentInputItem[];
  done: Map<string, OpDone & { attempt: string }>;
  /** A block a change wrote is on the branch. */
  changed: boolean;
}

/**
 * foldHistory gives the items of a history's records. A change (applyHistoryTransaction)
 * writes its items tagged with its operation id and attempt, and only its last block says it
 * is done: the store writes in order, so once that block is stored all the change is. A
 * change counts only when done, and at its first block first drops the items it replaces;
 * the blocks of an attempt that never finished (its process died) are passed over.
 */
export function foldHistory(records: Envelope[]): FoldedHistory {
  const done = new Map<string, OpDone & { attempt: string }>();
  let changed = false;
  for (const r of records) {
    for (const b of r.message?.content ?? []) {
      const tag = b[OP] as OpTag | undefined;
      if (tag === undefined) continue;
      changed = true;
      if (b[DONE] !== undefined) done.set(tag.id, { ...(b[DONE] as OpDone), attempt: tag.attempt });
    }
  }
  const items: AgentInputItem[] = [];
  const applied = new Set<string>();
  for (const r of records) {
    for (const b of r.message?.content ?? []) {
      const tag = b[OP] as OpTag | undefined;
      if (tag !== undefined) {
        const d = done.get(tag.id);
        if (d === undefined || d.attempt !== tag.attempt) continue;
        if (!applied.has(tag.id)) {
          applied.add(tag.id);
          items.splice(Math.max(0, items.length - d.replaces));
        }
      }
      if (b[ITEM] !== undefined) items.push(b[ITEM] as AgentInputItem);
    }
  }
  return { items, done, changed };
}

/** tagBlocks marks blocks as written by attempt `tag` of a change, the last one as the change done. */
export function tagBlocks(blocks: Block[], tag: OpTag, done: OpDone): Block[] {
  return blocks.map((b, i) => (i === blocks.length - 1 ? { ...b, [OP]: tag, [DONE]: done } : { ...b, [OP]: tag }));
}

/** canonicalJSON is value as JSON with every object's keys sorted: equal for structurally equal values. */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
  });
}

/** fingerprint identifies a transaction by its content. */
export function fingerprint(transaction: unknown): string {
  return createHash('sha256').update(canonicalJSON(transaction)).digest('hex');
}

/** historyConflict is the error of a change the history does not allow; it changes nothing. */
export function historyConflict(message: string): SessionError {
  return new SessionError(message, 'HISTORY_CONFLICT');
}
