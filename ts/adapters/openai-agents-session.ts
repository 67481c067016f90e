import { randomUUID } from 'node:crypto';
import type { AgentInputItem, Session as AgentsSession } from '@openai/agents';
import { Session } from '../session';
import { SessionError, argTypeError } from '../errors';
import type { Block } from '../types';
import type { Summarizer } from '../context-types';
import { oneAtATime } from '../one-at-a-time';
import { blocksWith, historyRecords, startHistory } from './history';
import { isObject } from './common';
import { DONE, ITEM, OP, OpDone, OpTag, canonicalJSON, fingerprint, foldHistory, historyConflict, tagBlocks } from './openai-agents-history';

const BY = 'openai-agents';

/** A history transaction of the SDK (`SessionHistoryTransaction`). */
export type HistoryTransaction =
  | { type: 'append_items'; items: AgentInputItem[] }
  | { type: 'replace_suffix'; expectedSuffix: AgentInputItem[]; replacement: AgentInputItem[] };

/** A history mutation of the SDK (`SessionHistoryMutation`). */
export type HistoryMutation = { type: 'replace_function_call'; callId: string; replacement: AgentInputItem };

/** Options of SessionkeepAgentsSession. */
export interface SessionkeepAgentsSessionOptions {
  /** Writes the summary of runCompaction(): sessionkeep's Summarizer, as session.compact() takes it. */
  summarize?: Summarizer;
  /** The recent turns runCompaction() keeps verbatim; 3 by default. */
  keepRecentTurns?: number;
}

/**
 * SessionkeepAgentsSession is a `Session` of the OpenAI Agents SDK (`run(agent, input, {
 * session })`) whose items live in a sessionkeep session, durable across processes. Each
 * item becomes a block of the session's messages (a message as text, a function call as
 * tool_use, its output as tool_result, reasoning as thinking, anything else as an
 * `openai_item` block) and is kept verbatim on its block, so getItems() gives back exactly
 * what was added. popItem() and clearSession() rewind, never delete.
 */
export class SessionkeepAgentsSession implements AgentsSession {
  /** The changes under way, one at a time. */
  readonly #queue = new Map<string, Promise<void>>();
  /**
   * The history has a start on the branch at the head. Once it has, it keeps it: popItem()
   * and clearSession() rewind to it at the furthest, so addItems() reads the session only once.
   */
  #started = false;

  constructor(readonly session: Session, readonly options: SessionkeepAgentsSessionOptions = {}) {
    if (!(session instanceof Session)) {
      throw argTypeError('session', 'a Session from store.createSession() or store.openSession()');
    }
    if (!isObject(options) || (options.summarize !== undefined && typeof options.summarize !== 'function')) {
      throw argTypeError('options', 'an object whose summarize, when given, is a function');
    }
  }

  /** getSessionId is the sessionkeep session's id: store.openSession(id) finds it again. */
  async getSessionId(): Promise<string> {
    return this.session.id;
  }

  /** getItems gives the items on the branch at the head, oldest first; the last `limit` of them with a limit. */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit !== undefined && (typeof limit !== 'number' || Number.isNaN(limit))) {
      throw argTypeError('limit', 'a number');
    }
    const { items } = foldHistory(historyRecords(this.session, BY).records);
    if (limit === undefined) return items;
    return limit <= 0 ? [] : items.slice(-limit);
  }

  /** addItems records the items, consecutive ones of the same side in one message, and resolves once they are on disk. */
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (!Array.isArray(items) || !items.every(isObject)) {
      throw argTypeError('items', 'an array of items');
    }
    if (items.length === 0) return;
    return this.#inTurn(async () => {
      this.start();
      this.record(items);
      await this.session.flush();
    });
  }

  /**
   * popItem removes the last item and gives it back: the session rewinds to the message
   * before the one holding it, and that message's other items are recorded again after it.
   */
  async popItem(): Promise<AgentInputItem | undefined> {
    return this.#inTurn(() => this.pop());
  }

  private async pop(): Promise<AgentInputItem | undefined> {
    const { records } = historyRecords(this.session, BY);
    const folded = foldHistory(records);
    if (folded.changed) {
      // A history with changes is not rewound (that could bring back what a change
      // replaced): the pop is a change of its own, replacing the last item with nothing.
      if (folded.items.length === 0) return undefined;
      await this.change({ id: `pop-${randomUUID()}`, attempt: randomUUID() }, { fingerprint: '', replaces: 1 }, []);
      return folded.items[folded.items.length - 1];
    }
    const last = [...records].reverse().find((r) => blocksWith(r, ITEM).length > 0);
    if (!last) return undefined;
    const items = blocksWith(last, ITEM).map((b) => b[ITEM] as AgentInputItem);
    await this.session.rewind(last.parentUuid!);
    this.record(items.slice(0, -1));
    await this.session.flush();
    return items[items.length - 1];
  }

  /** clearSession rewinds to the history's start: getItems() is empty, the items stay in session.tree(). */
  async clearSession(): Promise<void> {
    return this.#inTurn(async () => {
      const { start, records } = historyRecords(this.session, BY);
      if (start !== undefined && records.length > 0) await this.session.rewind(start);
      await this.session.flush();
    });
  }

  /**
   * applyHistoryTransaction applies an `append_items` or `replace_suffix` transaction once:
   * the operation id is stored on the blocks the change writes, and the change counts only
   * once its last block is stored, so a process that dies halfway leaves the history as it
   * was. The same id with the same transaction again does nothing; a used id with another
   * transaction, or a suffix that does not match the history's, rejects with
   * HISTORY_CONFLICT and changes nothing. Nothing is deleted: replaced items stay in the
   * session's records.
   */
  async applyHistoryTransaction(args: { operationId: string; transaction: HistoryTransaction }): Promise<void> {
    if (!isObject(args) || typeof args.operationId !== 'string' || args.operationId.trim() === '') {
      throw argTypeError('args', 'an object with a non-empty operationId string and a transaction');
    }
    const transaction = snapshotTransaction(args.transaction);
    const print = fingerprint(transaction);
    return this.#inTurn(async () => {
      const { items, done } = foldHistory(historyRecords(this.session, BY).records);
      const applied = done.get(args.operationId);
      if (applied !== undefined) {
        if (applied.fingerprint === print) return;
        throw historyConflict(`operation ${args.operationId} was applied with another transaction; nothing was changed.`);
      }
      let replaces = 0;
      let written = transaction.type === 'append_items' ? transaction.items : transaction.replacement;
      if (transaction.type === 'replace_suffix') {
        replaces = transaction.expectedSuffix.length;
        const actual = items.slice(items.length - replaces);
        if (replaces > items.length || canonicalJSON(actual) !== canonicalJSON(transaction.expectedSuffix)) {
          throw historyConflict('the history no longer ends with the expected suffix; nothing was changed.');
        }
        written = transaction.replacement;
      }
      await this.change({ id: args.operationId, attempt: randomUUID() }, { fingerprint: print, replaces }, written);
    });
  }

  /**
   * replaceHistoryWithCompaction makes the history these items (the SDK's compaction item and
   * the suffix it keeps) in one change, as applyHistoryTransaction writes one: atomic, and
   * nothing deleted. Without it the runner would clear the session and add the items again.
   */
  async replaceHistoryWithCompaction(items: AgentInputItem[]): Promise<void> {
    if (!Array.isArray(items) || !items.every(isObject)) throw argTypeError('items', 'an array of items');
    const kept = asStored(items);
    return this.#inTurn(async () => {
      const { items: before } = foldHistory(historyRecords(this.session, BY).records);
      const print = fingerprint({ type: 'replace_suffix', expectedSuffix: before, replacement: kept });
      await this.change({ id: `compaction-${randomUUID()}`, attempt: randomUUID() }, { fingerprint: print, replaces: before.length }, kept);
    });
  }

  /**
   * applyHistoryMutations applies `replace_function_call` mutations as the SDK's
   * MemorySession does (the first function call with the id becomes the replacement, the
   * others go), written as one change from the first item it alters.
   */
  async applyHistoryMutations(args: { mutations: HistoryMutation[] }): Promise<void> {
    if (!isObject(args) || !Array.isArray(args.mutations) || !args.mutations.every((m) => isObject(m) && m.type === 'replace_function_call' && typeof m.callId === 'string' && isObject(m.replacement))) {
      throw argTypeError('args', 'an object with an array of replace_function_call mutations');
    }
    if (args.mutations.length === 0) return;
    const mutations = args.mutations.map((m) => ({ callId: m.callId, replacement: asStored(m.replacement) }));
    return this.#inTurn(async () => {
      const { items } = foldHistory(historyRecords(this.session, BY).records);
      let next = items;
      for (const m of mutations) next = replaceFunctionCall(next, m.callId, m.replacement);
      let first = 0;
      while (first < items.length && first < next.length && canonicalJSON(items[first]) === canonicalJSON(next[first])) first++;
      if (first === items.length && first === next.length) return;
      const print = fingerprint({ type: 'replace_suffix', expectedSuffix: items.slice(first), replacement: next.slice(first) });
      await this.change({ id: `mutation-${randomUUID()}`, attempt: randomUUID() }, { fingerprint: print, replaces: items.length - first }, next.slice(first));
    });
  }

  /**
   * runCompaction compacts the session with sessionkeep's own compaction (session.compact())
   * and the summarizer given to the constructor: the older turns get a summary row, which
   * buildContext() uses; nothing is deleted and getItems() is unchanged. It gives null when
   * nothing is due (too little to compact, or no summarizer), else `{ usage }`: the tokens the
   * summarizer was given and the summary's, as sessionkeep counts them.
   */
  async runCompaction(args?: { force?: boolean }): Promise<{ usage: { inputTokens: number; outputTokens: number; totalTokens: number } } | null> {
    const summarize = this.options.summarize;
    if (summarize === undefined) return null;
    const result = await this.session.compact({ summarize, keepRecentTurns: this.options.keepRecentTurns });
    if (!result.compacted || result.boundary === undefined) return null;
    const inputTokens = Math.max(0, result.plan.tokensBefore - result.plan.tokensKept);
    const outputTokens = Math.max(0, result.boundary.tokensAfter - result.plan.tokensKept);
    return { usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
  }

  /** #inTurn runs work after the changes queued before it. */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    return oneAtATime(this.#queue, 'history', work);
  }

  /** start records the history's start once. */
  private start(): void {
    if (!this.#started && historyRecords(this.session, BY).start === undefined) startHistory(this.session, BY);
    this.#started = true;
  }

  /**
   * change writes items as attempt `tag` of a change, its last block saying it is done, and
   * resolves once it is on disk. A change of no items is one record saying it is done.
   */
  private async change(tag: OpTag, done: OpDone, items: AgentInputItem[]): Promise<void> {
    this.start();
    if (items.length === 0) {
      this.session.appendUserMessage([{ type: 'history_change', by: BY, [OP]: tag, [DONE]: done }]);
    } else {
      this.record(items, (blocks) => tagBlocks(blocks, tag, done));
    }
    await this.session.flush();
  }

  private record(items: AgentInputItem[], tag: (blocks: Block[]) => Block[] = (blocks) => blocks): void {
    const blocks = tag(items.map(itemBlock));
    let at = 0;
    for (const group of groups(items)) {
      const own = blocks.slice(at, at + group.items.length);
      at += group.items.length;
      if (group.side === 'assistant') {
        this.session.ingest({ type: 'message_start', provider: 'openai' });
        for (const block of own) this.session.ingest({ type: 'block', block });
        this.session.ingest({ type: 'done' });
      } else {
        this.appendUser(own);
      }
    }
  }

  /**
   * appendUser records user-side items as one user message. An output whose call this
   * session does not hold (popped, say) is kept as an openai_item block, not a tool_result.
   */
  private appendUser(blocks: Block[]): void {
    try {
      this.session.appendUserMessage(blocks);
    } catch (err) {
      if (!(err instanceof SessionError && err.code === 'UNKNOWN_TOOL_USE')) throw err;
      this.session.appendUserMessage(blocks.map((block) => {
        if (block.type !== 'tool_result') return block;
        const { type: _type, tool_use_id: _id, content: _content, ...kept } = block as Record<string, unknown>;
        return { ...kept, type: 'openai_item' } as Block;
      }));
    }
  }
}

/**
 * snapshotTransaction checks a transaction and gives it as stored (JSON), or throws before
 * anything changes: a TypeError for a wrong shape, INVALID_ARGUMENT for items JSON cannot hold.
 */
function snapshotTransaction(transaction: unknown): HistoryTransaction {
  const t = transaction as Record<string, unknown>;
  const ok = isObject(t) && (
    (t.type === 'append_items' && Array.isArray(t.items) && t.items.every(isObject))
    || (t.type === 'replace_suffix' && Array.isArray(t.expectedSuffix) && Array.isArray(t.replacement) && t.replacement.every(isObject)));
  if (!ok) throw argTypeError('transaction', "an append_items transaction ({ items }) or a replace_suffix one ({ expectedSuffix, replacement })");
  return asStored<HistoryTransaction>(t.type === 'append_items' ? { type: t.type, items: t.items } as HistoryTransaction : { type: t.type, expectedSuffix: t.expectedSuffix, replacement: t.replacement } as HistoryTransaction);
}

/** asStored gives value as it is stored, through JSON; INVALID_ARGUMENT for what JSON cannot hold. */
function asStored<T>(value: T): T {
  try {
    return JSON.parse(JSON.stringify(value));
  } catch (err) {
    throw new SessionError(`the items cannot be stored as JSON: ${(err as Error).message}`, 'INVALID_ARGUMENT');
  }
}

/** replaceFunctionCall gives items with the first function call of callId replaced and its others left out. */
function replaceFunctionCall(items: AgentInputItem[], callId: string, replacement: AgentInputItem): AgentInputItem[] {
  const out: AgentInputItem[] = [];
  let kept = false;
  for (const item of items) {
    const it = item as Record<string, unknown>;
    if (it.type === 'function_call' && it.callId === callId) {
      if (!kept) out.push(replacement);
      kept = true;
      continue;
    }
    out.push(item);
  }
  return out;
}

type Side = 'user' | 'assistant';

/** Items the user side gives the model: messages of the user, system or developer, and tool outputs. */
const TOOL_OUTPUTS = new Set([
  'function_call_result', 'computer_call_result', 'shell_call_output', 'apply_patch_call_output', 'tool_search_output',
]);

function side(item: Record<string, any>): Side {
  if (TOOL_OUTPUTS.has(item.type)) return 'user';
  if ((item.type === undefined || item.type === 'message') && item.role !== 'assistant') return 'user';
  return 'assistant';
}

function groups(items: AgentInputItem[]): { side: Side; items: AgentInputItem[] }[] {
  const out: { side: Side; items: AgentInputItem[] }[] = [];
  for (const item of items) {
    const s = side(item);
    const last = out[out.length - 1];
    if (last?.side === s) last.items.push(item);
    else out.push({ side: s, items: [item] });
  }
  return out;
}

/** itemBlock is the block an item becomes, keeping the item verbatim. */
function itemBlock(item: AgentInputItem): Block {
  const it = item as Record<string, any>;
  const keep = { [ITEM]: item };
  switch (it.type ?? 'message') {
    case 'message':
      return { type: 'text', text: contentText(it.content), ...keep };
    case 'function_call':
      return { type: 'tool_use', id: String(it.callId), name: String(it.name), input: parseArguments(it.arguments), ...keep };
    case 'function_call_result':
      return { type: 'tool_result', tool_use_id: String(it.callId), content: outputText(it.output), ...keep };
    case 'reasoning':
      return { type: 'thinking', thinking: contentText(it.content), ...keep };
  }
  return { type: 'openai_item', ...keep };
}

/** contentText is the text of a message's or an output's content: a string, or its parts' text joined. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((p) => (isObject(p) ? (typeof p.text === 'string' ? p.text : typeof p.refusal === 'string' ? p.refusal : '') : ''))
    .join('');
}

/** outputText is a tool output as tool_result content: its text, else (an image, a file) its JSON. */
function outputText(output: unknown): string {
  const text = contentText(output);
  return text !== '' || typeof output === 'string' ? text : JSON.stringify(output) ?? '';
}

/** parseArguments gives a function call's JSON arguments as the tool_use input, {} when they are not an object. */
function parseArguments(args: unknown): Record<string, unknown> {
  if (typeof args !== 'string') return {};
  try {
    const input = JSON.parse(args);
    return isObject(input) ? input : {};
  } catch {
    return {};
  }
}
