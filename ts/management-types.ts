import type { OpenStoreOptions } from './store';
import type { SessionInfo, TokenTracker } from './types';

/** Prices in dollars per million tokens. A cache rate that is not given is charged at the input rate. */
export interface Price {
  input: number;
  output: number;
  cacheRead?: number;
  /** A cache write with the default time to live (Anthropic's 5 minutes): every write is priced at it. */
  cacheWrite?: number;
  /** A cache write kept for an hour, where the provider sells one (recorded; stored usage does not tell the two apart). */
  cacheWrite1h?: number;
  /** The rates of a request whose prompt (input, cache read and cache write tokens) is above `aboveTokens`, on every token of it. */
  longContext?: Omit<Price, 'longContext'> & { aboveTokens: number };
}

/**
 * Prices by model. A model is priced by its exact name, else by the longest name that is a
 * prefix of it (`claude-sonnet-4-5` prices `claude-sonnet-4-5-20250929`), else by `'*'`.
 * They lay over sessionkeep's built-in list prices (Anthropic, OpenAI, Google; see
 * docs/api.md), so they are only needed for a model the built-in table lacks or prices
 * differently.
 */
export type Prices = Record<string, Price>;

export interface PriceOptions {
  prices?: Prices;
}

/** The tokens one model used in a session. */
export interface ModelUsage {
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** The part of cacheCreationInputTokens written to the cache for an hour (priced at cacheWrite1h). */
  cacheCreation1hInputTokens: number;
  /** In dollars, when the model has a price. */
  cost?: number;
}

/** SessionInfo with the counts and usage that take a pass over the session's messages. */
export interface SessionDetails extends SessionInfo {
  /** Prompts: user messages that are not tool results. */
  interactions: number;
  assistantMessages: number;
  toolResultMessages: number;
  usage: ModelUsage[];
  /** The cost of every model with a price, in dollars. */
  cost?: number;
  /** Models with usage but no price, left out of `cost`. */
  unpricedModels?: string[];
}

/** What to show when a session is resumed (seed 003), as data and as `text`. */
export interface ResumeSummary {
  id: string;
  title: string;
  projectPath: string;
  status: SessionInfo['status'];
  /** The last message's time (the creation time when there is none), ISO 8601. */
  lastActivity: string;
  /** `lastActivity` for people: "2 hours ago". */
  lastActivityAgo: string;
  interactions: number;
  messageCount: number;
  toolCount: number;
  /** Input + output + cache read + cache creation tokens over the session. */
  totalTokens: number;
  tokens: TokenTracker;
  /** In dollars, of the models with a price. */
  cost?: number;
  /** What the context window holds now: the last request's input and cache tokens. */
  contextTokens: number;
  contextWindow?: number;
  /** contextTokens as a percentage of contextWindow, when the window is known. */
  contextPercent?: number;
  /** The summary for people, several lines. */
  text: string;
}

export interface ResumeSummaryOptions extends PriceOptions {
  /** The time "ago" is measured from; defaults to now. */
  now?: Date;
}

export interface SessionByKeyOptions {
  /** Create the session when no session has the key; without it, a missing key gives null. */
  create?: boolean;
  /** For a session created here; hosted sessions have no project unless given one. */
  projectPath?: string;
  title?: string;
  provider?: string;
  model?: string;
  contextWindow?: number;
}

/** WorkspaceStoreOptions are openStore()'s options (onError, redact) and the store's folder. */
export interface WorkspaceStoreOptions extends OpenStoreOptions {
  /** The folder of the workspace's store; defaults to the folder of the default store. */
  dir?: string;
}

/** One entry of a stateless responder's manual history. */
export interface HistoryEntry {
  role: 'user' | 'assistant';
  content: string;
  timestamp: string;
}

export interface MissedContextOptions {
  /** At most this many characters (UTF-16 code units, as String.length counts); default 8000. */
  maxChars?: number;
}

/** The messages a hosted agent missed, formatted for its next prompt. */
export interface MissedContext {
  /** How many missed messages `formatted` holds. */
  count: number;
  /** How many older missed messages did not fit. */
  omitted: number;
  formatted: string;
}

/** A session that opening the store found left open by a process that is gone, and marked interrupted. */
export interface RecoveredSession {
  id: string;
  projectPath: string;
  title: string;
  /** Messages that were still streaming: kept, partial blocks included, and marked interrupted. */
  interruptedMessages: number;
}

export interface SearchOptions {
  /** Only sessions of this project. */
  projectPath?: string;
  /** At most this many messages; default 50. */
  limit?: number;
  /** Put around each match in snippets, e.g. ['**', '**']; none by default. */
  highlight?: [string, string];
}

/** A message whose text matches a search, best first. */
export interface SearchHit {
  sessionId: string;
  messageUuid: string;
  /** The matching text with some words around it, '…' where it was cut. */
  snippet: string;
  role: 'user' | 'assistant';
  timestamp: string;
  sessionTitle: string;
  projectPath: string;
}

export interface StatsOptions extends PriceOptions {
  projectPath?: string;
  /** Only usage at or after this time. */
  since?: Date | string;
  /** Only usage before this time. */
  until?: Date | string;
  /** Days are calendar days at this offset from UTC; defaults to the local zone's. */
  utcOffsetMinutes?: number;
  /** Also sum the usage by 5-hour window, as subscription plans count it (`Stats.blocks`). */
  blocks?: boolean;
}

/**
 * The usage of one 5-hour window: it starts at the hour of its first request and ends 5
 * hours later; a request after the end, or 5 hours or more after the one before it, starts
 * the next.
 */
export interface UsageBlock {
  /** ISO 8601 times: the window, and its first and last requests. */
  start: string;
  end: string;
  firstAt: string;
  lastAt: string;
  models: ModelUsage[];
  /** Sums over the window; `model` is '*'. */
  totals: ModelUsage;
}

/** The usage of one model on one day. */
export interface UsageRow extends ModelUsage {
  /** YYYY-MM-DD */
  day: string;
}

export interface Stats {
  days: UsageRow[];
  /** Sums over every row; `model` is '*'. */
  totals: ModelUsage;
  unpricedModels?: string[];
  /** Usage by 5-hour window, oldest first, when `blocks` was asked for. */
  blocks?: UsageBlock[];
}
