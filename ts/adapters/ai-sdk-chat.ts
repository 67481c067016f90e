import { isDeepStrictEqual } from 'node:util';
import { Store } from '../store';
import type { Session } from '../session';
import type { Block, CreateSessionOptions, Envelope } from '../types';
import { argTypeError } from '../errors';
import { blocksWith, historyRecords, startHistory } from './history';
import { isObject } from './common';
import { oneAtATime } from '../one-at-a-time';

const BY = 'ai-sdk-chat';
/** The block field that keeps a UIMessage verbatim, on the first block it became. */
const UI_MESSAGE = 'ui_message';
/** The block field naming the UIMessage a record was made from, on each record's first block. */
const UI_MESSAGE_ID = 'ui_message_id';

/**
 * A chat message as the AI SDK's `useChat` holds it: the shape of `UIMessage` of `ai` that
 * sessionkeep reads (give aiSDKChatStore your UIMessage type to get it back typed).
 */
export interface ChatMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  metadata?: unknown;
  parts: { type: string }[];
}

/** A part as the mapping reads it: any of the AI SDK's part types. */
type Part = { type: string; [field: string]: any };

/** The chat persistence of the AI SDK's chatbot guide, backed by a sessionkeep store. */
export interface AISDKChatStore<M extends ChatMessage = ChatMessage> {
  /** createChat starts a chat: a new session, whose id is the chat's id. */
  createChat(options?: CreateSessionOptions): Promise<string>;
  /** saveChat makes the chat's stored messages these, recording what changed; resolves once on disk. */
  saveChat(chat: { chatId: string; messages: M[] }): Promise<void>;
  /** loadChat gives the chat's messages exactly as they were last saved. */
  loadChat(chatId: string): Promise<M[]>;
}

/**
 * aiSDKChatStore gives createChat, saveChat and loadChat for the AI SDK's `UIMessage`s, kept
 * in `store`: each message becomes the session's messages (a user message; an assistant
 * message per step, with tool results as the tool_result message after it) and is kept
 * verbatim, so loadChat() gives back exactly what was saved. Saving a list that differs
 * from the stored one before its end (a regenerated or edited message) rewinds to the last
 * message both share and records the rest as a new branch; nothing stored is lost.
 */
export function aiSDKChatStore<M extends ChatMessage = ChatMessage>(store: Store): AISDKChatStore<M> {
  if (!(store instanceof Store)) throw argTypeError('store', 'a Store from openStore()');
  const open = new Map<string, Session>();
  /** The save of each chat going on: saves of one chat run one after another, in call order. */
  const saving = new Map<string, Promise<void>>();
  const session = (chatId: unknown): Session => {
    if (typeof chatId !== 'string') throw argTypeError('chatId', 'a string');
    let s = open.get(chatId);
    if (!s) {
      s = store.openSession(chatId);
      open.set(chatId, s);
    }
    return s;
  };
  return {
    async createChat(options = {}) {
      const s = store.createSession(options);
      open.set(s.id, s);
      startHistory(s, BY);
      await s.flush();
      return s.id;
    },
    async saveChat(chat) {
      if (!isObject(chat)) throw argTypeError('chat', 'an object with chatId and messages');
      const s = session(chat.chatId);
      const messages = chat.messages;
      if (!Array.isArray(messages) || !messages.every((m) => isObject(m) && Array.isArray(m.parts))) {
        throw argTypeError('messages', 'an array of UIMessages');
      }
      // As the messages are now: the app may change its array before a save queued behind another runs.
      const snapshot = messages.map(asJSON) as ChatMessage[];
      await oneAtATime(saving, s.id, async () => {
        await save(s, snapshot);
        await s.flush();
      });
    },
    async loadChat(chatId) {
      return stored(historyRecords(session(chatId), BY).records).map((m) => m.message as M);
    },
  };
}

/** A stored UIMessage and the last of the records it became. */
interface StoredMessage {
  message: ChatMessage;
  last: Envelope;
}

function stored(records: Envelope[]): StoredMessage[] {
  const out: StoredMessage[] = [];
  for (const r of records) {
    const [first] = blocksWith(r, UI_MESSAGE_ID);
    if (!first) continue;
    if (first[UI_MESSAGE] !== undefined) out.push({ message: first[UI_MESSAGE] as ChatMessage, last: r });
    else if (out.length > 0) out[out.length - 1].last = r;
  }
  return out;
}

/**
 * save makes the chat's history `messages`, which are as JSON already (saveChat's snapshot):
 * the stored messages they start with stay, the rest is recorded after a rewind.
 */
async function save(s: Session, messages: ChatMessage[]): Promise<void> {
  let { start, records } = historyRecords(s, BY);
  start ??= startHistory(s, BY);
  const old = stored(records);
  let same = 0;
  while (same < old.length && same < messages.length && isDeepStrictEqual(old[same].message, messages[same])) same++;
  if (same < old.length) await s.rewind(same > 0 ? old[same - 1].last.uuid : start);
  for (const m of messages.slice(same)) record(s, m);
}

/** asJSON is a message as the store keeps it: as JSON (undefined fields dropped). */
function asJSON(m: ChatMessage): ChatMessage {
  return JSON.parse(JSON.stringify(m));
}

/** record writes one UIMessage (as JSON) as the session's messages, keeping it verbatim on the first block. */
function record(s: Session, m: ChatMessage): void {
  let first = true;
  const mark = (blocks: Block[]): Block[] => {
    const carried: Block[] = blocks.length > 0 ? blocks : [{ type: 'ui_message' }];
    carried[0] = { ...carried[0], [UI_MESSAGE_ID]: m.id, ...(first ? { [UI_MESSAGE]: m } : {}) };
    first = false;
    return carried;
  };
  if (m.role !== 'assistant') {
    s.appendUserMessage(mark((m.parts as Part[]).flatMap(userBlock)));
    return;
  }
  for (const step of steps(m.parts as Part[])) {
    s.ingest({ type: 'message_start', provider: 'ai-sdk' });
    for (const block of mark(step.blocks)) s.ingest({ type: 'block', block });
    s.ingest({ type: 'done', stopReason: step.results.length > 0 ? 'tool_use' : undefined });
    if (step.results.length > 0) s.appendUserMessage(mark(step.results));
  }
}

/** A step of an assistant message: its blocks, and the results of the tools it called. */
interface Step {
  blocks: Block[];
  results: Block[];
}

/** steps splits an assistant message's parts at its step-start parts. */
function steps(parts: Part[]): Step[] {
  const out: Step[] = [{ blocks: [], results: [] }];
  for (const part of parts) {
    let step = out[out.length - 1];
    if (part.type === 'step-start') {
      if (step.blocks.length === 0 && step.results.length === 0) continue;
      out.push((step = { blocks: [], results: [] }));
    }
    if (part.type === 'text') step.blocks.push({ type: 'text', text: String(part.text ?? '') });
    else if (part.type === 'reasoning') step.blocks.push(thinking(part));
    else if (part.type === 'file') step.blocks.push(fileBlock(part));
    else if (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) {
      const name = part.type === 'dynamic-tool' ? String(part.toolName) : part.type.slice('tool-'.length);
      step.blocks.push({ type: 'tool_use', id: String(part.toolCallId), name, input: isObject(part.input) ? part.input : {} });
      const result = toolResult(part);
      if (result) step.results.push(result);
    }
    // step-start, source-url, source-document and data-* parts are kept only on the verbatim message.
  }
  return out;
}

function userBlock(part: Part): Block[] {
  if (part.type === 'text') return [{ type: 'text', text: String(part.text ?? '') }];
  if (part.type === 'file') return [fileBlock(part)];
  return [];
}

function thinking(part: Part): Block {
  const signature = part.providerMetadata?.anthropic?.signature;
  return typeof signature === 'string'
    ? { type: 'thinking', thinking: String(part.text ?? ''), signature }
    : { type: 'thinking', thinking: String(part.text ?? '') };
}

/** fileBlock is a file part as an image block (image media types) or a document block, by URL. */
function fileBlock(part: Part): Block {
  const mediaType = String(part.mediaType ?? 'application/octet-stream');
  const source = { type: 'url', url: String(part.url ?? ''), media_type: mediaType };
  return mediaType.startsWith('image/') ? { type: 'image', source } : { type: 'document', source };
}

/** toolResult is the tool_result of a tool part that has an output, an error or a denial. */
function toolResult(part: Part): Block | undefined {
  const id = String(part.toolCallId);
  switch (part.state) {
    case 'output-available':
      return { type: 'tool_result', tool_use_id: id, content: typeof part.output === 'string' ? part.output : JSON.stringify(part.output) ?? '' };
    case 'output-error':
      return { type: 'tool_result', tool_use_id: id, content: String(part.errorText ?? ''), is_error: true };
    case 'output-denied':
      return { type: 'tool_result', tool_use_id: id, content: 'The tool call was denied.', is_error: true };
  }
  return undefined;
}
