import type { SessionInfo, TokenTracker } from './types';

/** Prices in dollars per million tokens. A cache rate that is not given is charged at the input rate. */
export interface Price {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * Prices by model. A model is priced by its exact name, else by the longest name that is a
 * prefix of it (`claude-sonnet-4-5` prices `claude-sonnet-4-5-20250929`), else by `'*'`.
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
  /** The cost of every model with a price, in dollars; absent without prices. */
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
  /** In dollars, when prices were given. */
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
