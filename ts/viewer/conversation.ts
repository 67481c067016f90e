// conversation arranges the loaded records of a session for reading: tool results beside the
// call they answer, a subagent's records (its sidechain) under the Task/Agent call that ran
// it, and the records that are not messages told apart from the ones that are.
import type { Block, Envelope, ToolResultBlock } from './api-types';

/** A tool result and the record that carried it. */
export interface PairedResult {
  block: ToolResultBlock;
  envelope: Envelope;
}

export interface Conversation {
  /** The records shown at the top level, in stored order. */
  top: Envelope[];
  /** Results by the id of the tool_use they answer. */
  results: Map<string, PairedResult>;
  /** A subagent's records by the id of the tool_use that started it. */
  sidechains: Map<string, Envelope[]>;
  /** Every tool_use id loaded: a result for one of these is shown with its call. */
  calls: Set<string>;
}

/** What a record is, for rendering. */
export type RecordKind = 'message' | 'compaction-boundary' | 'compaction-summary' | 'system' | 'other';

/** blocksOf is a record's content blocks; none for a record that is not a message. */
export function blocksOf(e: Envelope): Block[] {
  return Array.isArray(e.message?.content) ? e.message!.content : [];
}

/** sourceRecord is an imported record's own fields (Claude Code, Codex), or an empty object. */
export function sourceRecord(e: Envelope): Record<string, any> {
  return (e.source?.record as Record<string, any>) ?? {};
}

/** recordKind tells messages from compaction markers, system notices and other bookkeeping. */
export function recordKind(e: Envelope): RecordKind {
  const record = sourceRecord(e);
  if (e.type === 'system' && record.subtype === 'compact_boundary') return 'compaction-boundary';
  if (e.type === 'summary') return 'compaction-summary';
  if (e.message && record.isCompactSummary === true) return 'compaction-summary';
  if (e.message) return 'message';
  if (e.type === 'system') return 'system';
  return 'other';
}

/** arrange builds the reading order of the records loaded so far. */
export function arrange(envelopes: Envelope[]): Conversation {
  const calls = new Set<string>();
  for (const e of envelopes) {
    for (const b of blocksOf(e)) if (b.type === 'tool_use' && typeof b.id === 'string') calls.add(b.id);
  }
  const results = new Map<string, PairedResult>();
  const sidechains = new Map<string, Envelope[]>();
  const top: Envelope[] = [];
  for (const e of envelopes) {
    for (const b of blocksOf(e)) {
      if (b.type === 'tool_result' && calls.has((b as ToolResultBlock).tool_use_id)) {
        results.set((b as ToolResultBlock).tool_use_id, { block: b as ToolResultBlock, envelope: e });
      }
    }
    const parent = e.parentToolUseId;
    if (e.isSidechain && parent && calls.has(parent)) {
      const chain = sidechains.get(parent) ?? [];
      chain.push(e);
      sidechains.set(parent, chain);
    } else {
      top.push(e);
    }
  }
  return { top, results, sidechains, calls };
}

/** onlyPairedResults: the record holds nothing but results shown beside their calls, so it is not shown itself. */
export function onlyPairedResults(e: Envelope, conversation: Conversation): boolean {
  const blocks = blocksOf(e);
  return blocks.length > 0 && blocks.every((b) => b.type === 'tool_result' && conversation.calls.has((b as ToolResultBlock).tool_use_id));
}

/** A run of a subagent's records whose starting call is not loaded (or was never stored). */
export interface OrphanChain {
  agentId?: string;
  records: Envelope[];
}

/** groupOrphanChains puts consecutive top-level sidechain records of one agent together. */
export function groupOrphanChains(top: Envelope[]): (Envelope | OrphanChain)[] {
  const items: (Envelope | OrphanChain)[] = [];
  for (const e of top) {
    const last = items[items.length - 1];
    if (!e.isSidechain) items.push(e);
    else if (last && 'records' in last && last.agentId === e.agentId) last.records.push(e);
    else items.push({ agentId: e.agentId, records: [e] });
  }
  return items;
}

/**
 * compactionPlace is where a compaction made at `at` (an ISO time) goes among the items shown:
 * before the first created after it, or after them all when none is and every record is
 * loaded; null when none of those loaded is later but more are to come, so its place is not
 * known yet.
 */
export function compactionPlace(items: (Envelope | OrphanChain)[], at: string, complete: boolean): number | null {
  const when = Date.parse(at);
  const index = items.findIndex((item) => Date.parse('records' in item ? item.records[0].timestamp : item.timestamp) > when);
  if (index >= 0) return index;
  return complete ? items.length : null;
}
