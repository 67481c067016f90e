import type { Block } from './types';
import type { Session } from './session';

/**
 * The API whose messages a context is built in: Anthropic Messages or OpenAI Chat
 * Completions. (A session's `provider` is the vendor that answered; this is the shape.)
 */
export type ContextFormat = 'anthropic' | 'openai';

/** The built-in strategies, in the order buildContext tries them. */
export type BuiltinStrategy = 'full-history' | 'pruned-tools' | 'recent-plus-summary' | 'recent-turns' | 'minimal-state' | 'fallback';

/** A strategy's name: a built-in one, or one given to registerStrategy. */
export type ContextStrategy = BuiltinStrategy | (string & {});

/**
 * ContextStrategyDefinition is a strategy for registerStrategy (seed 004's interface). Its
 * priority places it among the built-in ones (full-history 1, pruned-tools 2,
 * recent-plus-summary 3, recent-turns 3.5, minimal-state 4, the fallback last; a built-in
 * one first at equal priority); it is skipped when the budget is below minTokens.
 */
export interface ContextStrategyDefinition {
  name: string;
  priority: number;
  /** The smallest budget, in tokens, it is tried at. Default 0. */
  minTokens?: number;
  /**
   * build proposes a context: messages as Anthropic's API takes them ({ role, content },
   * other fields ignored, so stored messages from session.messages() can be passed as they
   * are). The builder measures them, repairs them (a tool call left without its result, a
   * result without its call, consecutive messages of one role …) and validates them for the
   * provider; they are chosen only when they fit the budget then. buildContext needs a
   * synchronous build(); buildContextAsync also waits for a Promise.
   */
  build(input: StrategyInput): StrategyOutput | unknown[] | Promise<StrategyOutput | unknown[]>;
}

/** What a registered strategy's build() is given. */
export interface StrategyInput {
  session: Session;
  /** The budget of this call; the messages may take budget.availableTokens. */
  budget: ContextBudget;
  /** budget.availableTokens. */
  tokenBudget: number;
  format: ContextFormat;
  /** The options buildContext was called with. */
  options: BuildContextOptions;
  /** What messages take in the context, as the builder will measure them (before repairs). */
  countTokens(messages: unknown[]): number;
}

/** What a registered strategy's build() returns, when not just the messages. */
export interface StrategyOutput {
  messages: unknown[];
  /** Stored messages the context includes; default the number of messages. */
  includedCount?: number;
  /** Stored messages it stands for with a summary or state. Default 0. */
  summarizedCount?: number;
}

/**
 * A summarizer calls the caller's model: it gets messages (Anthropic Messages shaped, the
 * previous summary first, old tool outputs pruned) and resolves to a summary of about
 * targetTokens tokens.
 */
export type Summarizer = (messages: unknown[], targetTokens: number) => Promise<string>;

export interface BuildContextOptions {
  /** The model's context window, in tokens. */
  contextWindow: number;
  /** Counted against the budget; not included in the messages. */
  systemPrompt?: string;
  /** Tool definitions as sent to the API; counted against the budget. */
  tools?: unknown;
  /** Fraction of the window kept for the response, at least 0 and below 1. Default 0.25. */
  reserve?: number;
  /** An absolute response reserve in tokens, instead of `reserve`. */
  reserveTokens?: number;
  /** The API whose messages the context is in. Default 'anthropic'. */
  format?: ContextFormat;
  /** The first strategy to try; the ones before it are skipped. */
  strategy?: ContextStrategy;
  /**
   * How many of the last turns keep their tool outputs whole: pruned-tools,
   * recent-plus-summary and recent-turns prune the turns before them. Default 3.
   */
  unprunedTurns?: number;
  /** Fraction of the window past which compaction is due. Default 0.75. */
  compactThreshold?: number;
}

export interface BuildContextAsyncOptions extends BuildContextOptions {
  /**
   * With a summarizer, buildContextAsync compacts when compaction is due (unless
   * autoCompact is false), and has a summary made when the context would leave stored
   * messages out otherwise (recent-turns, minimal-state, the fallback, or a summary that no
   * longer reaches the recent turns). Summaries are cached by range and never made twice.
   */
  summarize?: Summarizer;
  autoCompact?: boolean;
  /** Turns a compaction keeps verbatim. Default 3. */
  keepRecentTurns?: number;
  /** Called when an automatic compaction starts and when it is done, for a TUI to show. */
  onCompaction?: (event: CompactionEvent) => void;
  /** The summarizer's model, recorded with each summary. */
  model?: string;
  targetTokens?: number;
  maxInputTokens?: number;
}

export interface CompactionEvent {
  phase: 'start' | 'done';
  trigger: 'threshold';
  plan: CompactPlan;
  result?: CompactResult;
}

export interface ContextBudget {
  contextWindow: number;
  systemPromptTokens: number;
  toolDefinitionTokens: number;
  reserveForResponse: number;
  availableTokens: number;
  /** What the full history (from the last compaction) would take. */
  conversationTokens: number;
  /** Of the window, with the full history, system prompt and tools. */
  utilizationPercent: number;
  /** Provider tokens per o200k token used for this provider. */
  calibration: number;
}

/** AnthropicContextMessage is one message of a context built for Anthropic's Messages API. */
export interface AnthropicContextMessage {
  role: 'user' | 'assistant';
  content: string | Block[];
}

/** OpenAIContextMessage is one Chat Completions message of a context built for OpenAI. */
export interface OpenAIContextMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | null | { type: string; [field: string]: unknown }[];
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
  [field: string]: unknown;
}

/**
 * ContextMessage is a message of a built context, in the provider's own format: pass
 * `result.messages` to its SDK (cast to the SDK's message type, which is its own declaration
 * of the same shape).
 */
export type ContextMessage = AnthropicContextMessage | OpenAIContextMessage;

export interface ContextResult {
  /** Anthropic: {role, content: blocks}. OpenAI: Chat Completions messages. The system prompt is not included. */
  messages: ContextMessage[];
  strategy: ContextStrategy;
  tokensUsed: number;
  tokenBudget: number;
  originalMessageCount: number;
  includedMessageCount: number;
  summarizedMessageCount: number;
  format: ContextFormat;
  budget: ContextBudget;
  /** The full history is past the compaction threshold: call compact(), or buildContextAsync with a summarizer. */
  compactionDue: boolean;
  debug: ContextReport;
  /** Set by buildContextAsync when it compacted before building. */
  compaction?: CompactResult;
}

export interface ContextRepair { kind: string; seq: number; toolUseId?: string }

export interface ContextAttempt {
  strategy: ContextStrategy;
  /** 'chosen', or why not: 'does not fit', 'no cached summary', 'budget below the strategy's minimum', 'over budget after repairs', 'not valid for the provider'. */
  outcome: string;
  /** What the chosen context takes, or a context over the budget after repairs. */
  tokensUsed?: number;
  /** What a strategy that does not fit would take, by the stored counts. */
  tokensNeeded?: number;
  problems?: ContextProblem[];
}

/** What a context leaves out: stored messages neither sent nor stood for by a summary. */
export interface ContextOmission {
  messageCount: number;
  /** Whole turns among them. */
  turnCount: number;
  /** What they would take verbatim. */
  tokens: number;
  /** The first and last left out; -1 when nothing is. */
  fromSeq: number;
  toSeq: number;
  /** Why the strategy left them out. */
  reason?: string;
}

/** What a built context holds and how it was chosen: seed 004's /debug context. */
export interface ContextReport {
  strategy: ContextStrategy;
  format: ContextFormat;
  budget: ContextBudget;
  tokensUsed: number;
  originalMessageCount: number;
  includedMessageCount: number;
  prunedMessageCount: number;
  summarizedMessageCount: number;
  sentMessageCount: number;
  omitted: ContextOmission;
  boundary?: Compaction;
  summary?: { fromSeq: number; toSeq: number; tokens: number; model: string };
  attempts: ContextAttempt[];
  repairs: ContextRepair[];
  compactionDue: boolean;
  builtAt: string;
  durationMs: number;
  /** The report as readable text. */
  text: string;
}

export interface CompactOptions {
  summarize?: Summarizer;
  /** Default 3. */
  keepRecentTurns?: number;
  /** Plan only: say what would happen, call nothing, write nothing. */
  dryRun?: boolean;
  model?: string;
  /** The length asked of each summary; by default from the input, at most 2,000. */
  targetTokens?: number;
  /** The most one summarizer call is given; longer ranges take several calls. Default 60,000. */
  maxInputTokens?: number;
}

export interface CompactPlan {
  compactable: boolean;
  reason?: string;
  /** The first message kept verbatim; the ones before it are summarized. */
  cutSeq: number;
  summarizedMessageCount: number;
  keptMessageCount: number;
  keptTurns: number;
  tokensBefore: number;
  tokensKept: number;
  summaryCached: boolean;
  boundary?: Compaction;
}

export interface Compaction {
  boundarySeq: number;
  trigger: string;
  tokensBefore: number;
  tokensAfter: number;
  createdAt: string;
}

export interface CompactResult {
  compacted: boolean;
  dryRun: boolean;
  plan: CompactPlan;
  boundary?: Compaction;
  /** Summarizer calls this compaction made (0 when the summary was cached). */
  summarizerCalls: number;
}

export interface ContextProblem { index: number; code: string; message: string }

export interface ContextValidation { valid: boolean; problems: ContextProblem[] }
