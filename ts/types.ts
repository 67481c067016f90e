import type { MessageContext, MessageOptions, RecordSource, ThinkingMetadata, TodoItem } from './message-state';
import type { ForkOrigin } from './branches';
import type { HistoryChangeBlock, HistoryStartBlock } from './adapters/history';

/**
 * Block types follow the Anthropic Messages API, and `type` narrows a block to its kind:
 * `if (b.type === 'text') b.text` is a string. A block of a type sessionkeep does not know is
 * kept verbatim as an UnknownBlock.
 */
export type Block =
  | TextBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ImageBlock
  | DocumentBlock
  | RefusalBlock
  | ReasoningBlock
  | HistoryStartBlock
  | HistoryChangeBlock
  | OpenAIItemBlock
  | UIMessageBlock
  | UnknownBlock;

export interface TextBlock { type: 'text'; text: string; [extra: string]: unknown }
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  /** Streamed input that was not valid JSON when its block ended, kept as it came; `input` is then `{}`. */
  raw_input?: string;
  input_error?: string;
  [extra: string]: unknown;
}
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Block[];
  is_error?: boolean;
  [extra: string]: unknown;
}
export interface ThinkingBlock { type: 'thinking'; thinking: string; signature?: string; [extra: string]: unknown }
export interface RedactedThinkingBlock { type: 'redacted_thinking'; data: string; [extra: string]: unknown }
/** A source's `data` may be given as bytes (Uint8Array or Buffer); it is stored as base64. */
export interface MediaSource {
  type: 'base64' | 'url' | 'text' | 'raw' | (string & {});
  media_type?: string;
  data?: string | Uint8Array;
  url?: string;
  [extra: string]: unknown;
}
export interface ImageBlock { type: 'image'; source: MediaSource; [extra: string]: unknown }
export interface DocumentBlock {
  type: 'document';
  source: MediaSource;
  title?: string;
  context?: string;
  [extra: string]: unknown;
}
/** RefusalBlock is an OpenAI model's refusal, as the OpenAI adapter records it. */
export interface RefusalBlock { type: 'refusal'; refusal: string; [extra: string]: unknown }
/** ReasoningBlock is a Codex reasoning item as imported, with its summary texts. */
export interface ReasoningBlock { type: 'reasoning'; summary?: unknown[]; [extra: string]: unknown }
/** OpenAIItemBlock keeps an OpenAI Agents SDK item that has no block of its own, verbatim. */
export interface OpenAIItemBlock { type: 'openai_item'; [extra: string]: unknown }
/** UIMessageBlock carries an AI SDK UIMessage that has no other block (aiSDKChatStore). */
export interface UIMessageBlock { type: 'ui_message'; [extra: string]: unknown }

declare const unknownBlockType: unique symbol;

/**
 * UnknownBlockType is the declared type of an UnknownBlock's `type`. At run time it is the
 * block's own type string; it is declared as no string so that comparing `type` with a known
 * block's name (`b.type === 'text'`) narrows to that block alone. `String(b.type)` reads it.
 */
export interface UnknownBlockType { readonly [unknownBlockType]: 'a block type this version does not know' }

/**
 * UnknownBlock is a block of a type sessionkeep does not know (a newer API's), kept verbatim.
 * It is what is left in the `default:` of a `switch (b.type)` over the known blocks; to write
 * one, cast: `{ type: 'server_tool_use', ... } as unknown as UnknownBlock`.
 */
export interface UnknownBlock { type: UnknownBlockType; [extra: string]: unknown }

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  [extra: string]: unknown;
}

/** A message as the provider API takes it. Content is always an array of blocks. */
export interface Message {
  role: 'user' | 'assistant';
  content: Block[];
  id?: string;
  model?: string;
  stop_reason?: string;
  stop_sequence?: string;
  usage?: Usage;
  [extra: string]: unknown;
}

/** The raw execution record of a tool call. */
export interface ToolExecution {
  stdout?: string;
  stderr?: string;
  interrupted?: boolean;
  isImage?: boolean;
  durationMs?: number;
  exitCode?: number;
  [extra: string]: unknown;
}

export type MessageStatus = 'streaming' | 'complete' | 'interrupted' | 'error';

/**
 * A message with the envelope sessionkeep keeps around it. Imported records that are not
 * messages (a Claude Code summary, system or progress record, …) have their own `type` and
 * no `message`.
 */
export interface Envelope {
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  timestamp: string;
  type: 'user' | 'assistant' | 'tool_result' | 'summary' | 'system' | (string & {});
  provider?: string;
  requestId?: string;
  /** `interrupted`: cut off by a crash, a close or a new prompt; `error`: the stream failed. */
  status: MessageStatus;
  turn: number;
  /** A subagent's message: left out of messages(). */
  isSidechain: boolean;
  /** The record continues the previous record's message (a Claude Code assistant message written one block per line); messages() joins them. */
  continuesPrevious?: true;
  agentId?: string;
  parentToolUseId?: string;
  context?: MessageContext;
  todos?: TodoItem[];
  thinkingMetadata?: ThinkingMetadata;
  /** Raw execution records of the tool results in this message, by tool_use_id. */
  toolUseResults?: Record<string, ToolExecution>;
  /** The error that ended the stream, when status is `error`. */
  error?: string;
  /** Where an imported record came from. */
  source?: RecordSource;
  message?: Message;
}

export type StreamChunk =
  | ({ type: 'message_start'; id?: string; model?: string; provider?: string; requestId?: string } & MessageOptions)
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'signature'; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_use_start'; id: string; name: string }
  | { type: 'tool_use_delta'; partialJson: string }
  | { type: 'tool_result'; toolUseId: string; content: string | Block[]; isError?: boolean; raw?: ToolExecution }
  | { type: 'done'; stopReason?: string; stopSequence?: string; usage?: Usage; id?: string; model?: string }
  | { type: 'error'; message: string }
  | BlockChunk;

export interface Turn { index: number; startIndex: number; endIndex: number }

export interface TokenTracker {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** The last request's input + cache read + cache creation tokens: what the window holds now. */
  contextTokens: number;
}

/**
 * `interrupted`: a process died or was stopped while the session was open, or a reply was cut
 * off (until the next message is written). `archived`: hidden from listings until unarchived.
 * `corrupted`: rows of the session could not be read; `corruption` says which.
 */
export type SessionStatus = 'active' | 'interrupted' | 'archived' | 'corrupted';

export interface SessionInfo {
  id: string;
  projectPath: string;
  title: string;
  provider?: string;
  model?: string;
  contextWindow?: number;
  createdAt: string;
  /** The last write of a message or block. Listings are newest first by this. */
  updatedAt: string;
  /** When the last message began; absent when there is none. */
  lastMessageAt?: string;
  /** When a process last opened or let go of the session. */
  lastAccessedAt: string;
  /** When the session was archived; absent unless it is. */
  archivedAt?: string;
  messageCount: number;
  /** How many tool_use blocks the session holds. */
  toolCount: number;
  /** The token tracker: sums over every request, and the context size now. */
  tokens: TokenTracker;
  status: SessionStatus;
  /** Why the session is `corrupted`. */
  corruption?: string;
  /** `workspace:channel:handle`, for sessions of hosted agents. */
  key?: string;
  /** The last committed pubsub id (hosted agents). */
  checkpoint?: number;
  /** The SDK's own session id (Claude Agent SDK, Codex), when recorded. */
  sdkSessionId?: string;
  /** The session and record this one was forked from (session.fork()). */
  forkedFrom?: ForkOrigin;
  /** How many secrets were replaced in its tool inputs and outputs, on a store opened with `redact`; absent when none. */
  redactions?: number;
}

export interface CreateSessionOptions {
  /** Defaults to process.cwd(). */
  projectPath?: string;
  title?: string;
  provider?: string;
  model?: string;
  contextWindow?: number;
}

export interface ListSessionsOptions {
  projectPath?: string;
  /** At most this many; 0 or omitted means all. */
  limit?: number;
  /** Skip this many first, for paging. */
  offset?: number;
  /** Archived sessions are left out unless this is true. */
  includeArchived?: boolean;
  /**
   * Only these fields of each listing, for a picker over thousands of sessions: SQLite reads
   * only their columns and JSON.parse only their values. All fields when omitted. An unknown
   * name throws INVALID_ARGUMENT.
   */
  fields?: readonly (keyof SessionInfo)[];
}

/**
 * The chunks for what the delta chunks cannot say, each kept verbatim: `block` adds a complete
 * block of any type; `block_start` starts a block whose text, thinking or input then streams
 * with the delta chunks, keeping its other fields (a new block even when the one before has
 * the same kind); `block_fields` sets fields of the block streaming (citations that arrive
 * mid-block).
 */
export type BlockChunk =
  | { type: 'block'; block: Block }
  | { type: 'block_start'; block: Block }
  | { type: 'block_fields'; fields: Record<string, unknown> };
