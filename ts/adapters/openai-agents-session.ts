import type { AgentInputItem, Session as AgentsSession } from '@openai/agents';
import { Session } from '../session';
import { SessionError, argTypeError } from '../errors';
import type { Block } from '../types';
import { blocksWith, historyRecords, startHistory } from './history';
import { isObject } from './common';

const BY = 'openai-agents';
/** The block field that keeps an item verbatim. */
const ITEM = 'openai_item';

/**
 * SessionkeepAgentsSession is a `Session` of the OpenAI Agents SDK (`run(agent, input, {
 * session })`) whose items live in a sessionkeep session, durable across processes. Each
 * item becomes a block of the session's messages (a message as text, a function call as
 * tool_use, its output as tool_result, reasoning as thinking, anything else as an
 * `openai_item` block) and is kept verbatim on its block, so getItems() gives back exactly
 * what was added. popItem() and clearSession() rewind, never delete.
 */
export class SessionkeepAgentsSession implements AgentsSession {
  /**
   * The history has a start on the branch at the head. Once it has, it keeps it: popItem()
   * and clearSession() rewind to it at the furthest, so addItems() reads the session only once.
   */
  #started = false;

  constructor(readonly session: Session) {
    if (!(session instanceof Session)) {
      throw argTypeError('session', 'a Session from store.createSession() or store.openSession()');
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
    const items = historyRecords(this.session, BY).records.flatMap((r) => blocksWith(r, ITEM).map((b) => b[ITEM] as AgentInputItem));
    if (limit === undefined) return items;
    return limit <= 0 ? [] : items.slice(-limit);
  }

  /** addItems records the items, consecutive ones of the same side in one message, and resolves once they are on disk. */
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (!Array.isArray(items) || !items.every(isObject)) {
      throw argTypeError('items', 'an array of items');
    }
    if (items.length === 0) return;
    if (!this.#started && historyRecords(this.session, BY).start === undefined) startHistory(this.session, BY);
    this.#started = true;
    this.record(items);
    await this.session.flush();
  }

  /**
   * popItem removes the last item and gives it back: the session rewinds to the message
   * before the one holding it, and that message's other items are recorded again after it.
   */
  async popItem(): Promise<AgentInputItem | undefined> {
    const { records } = historyRecords(this.session, BY);
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
    const { start, records } = historyRecords(this.session, BY);
    if (start !== undefined && records.length > 0) await this.session.rewind(start);
    await this.session.flush();
  }

  private record(items: AgentInputItem[]): void {
    for (const group of groups(items)) {
      if (group.side === 'assistant') {
        this.session.ingest({ type: 'message_start', provider: 'openai' });
        for (const item of group.items) this.session.ingest({ type: 'block', block: itemBlock(item) });
        this.session.ingest({ type: 'done' });
      } else {
        this.appendUser(group.items);
      }
    }
  }

  /**
   * appendUser records user-side items as one user message. An output whose call this
   * session does not hold (popped, say) is kept as an openai_item block, not a tool_result.
   */
  private appendUser(items: AgentInputItem[]): void {
    try {
      this.session.appendUserMessage(items.map(itemBlock));
    } catch (err) {
      if (!(err instanceof SessionError && err.code === 'UNKNOWN_TOOL_USE')) throw err;
      this.session.appendUserMessage(items.map((item) => {
        const block = itemBlock(item);
        return block.type === 'tool_result' ? { type: 'openai_item', [ITEM]: item } : block;
      }));
    }
  }
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
