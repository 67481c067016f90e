import { argTypeError, SessionError } from './errors';
import { native, Handle } from './native';
import type {
  BuildContextAsyncOptions, BuildContextOptions, CompactOptions, CompactPlan, CompactResult,
  ContextProvider, ContextReport, ContextResult, ContextValidation, Summarizer,
} from './context-types';

/** The summary work of each session by id, chained so that a session makes one summary at a time. */
const summarizing = new Map<string, Promise<void>>();

/** Strategies that need no new summary: the others are what a summary would improve on. */
const fitWithoutNewSummary = new Set(['full-history', 'pruned-tools', 'recent-plus-summary']);

/** buildContext builds the next call's messages within the budget, on the calling thread. */
export function buildContext(h: Handle, options: BuildContextOptions): ContextResult {
  return JSON.parse(native.buildContext(h, optionsJSON(options)));
}

/**
 * buildContextAsync builds off the JS thread. With a summarizer it compacts when compaction
 * is due, and has a summary made when only minimal-state or the fallback would fit.
 */
export async function buildContextAsync(h: Handle, id: string, options: BuildContextAsyncOptions): Promise<ContextResult> {
  const json = optionsJSON(options);
  const summarize = options.summarize;
  if (summarize !== undefined && typeof summarize !== 'function') throw summarizerTypeError();
  let result: ContextResult = JSON.parse(await native.buildContextAsync(h, json));
  if (!summarize) return result;
  let compaction: CompactResult | undefined;
  if (result.compactionDue && options.autoCompact !== false) {
    compaction = await autoCompact(h, id, options, summarize);
    if (compaction.compacted) result = JSON.parse(await native.buildContextAsync(h, json));
  }
  if (!fitWithoutNewSummary.has(result.strategy)) {
    const { cut, ok } = JSON.parse(await native.summaryCut(h, json));
    if (ok && await ensureSummary(h, id, cut - 1, options, summarize) > 0) {
      result = JSON.parse(await native.buildContextAsync(h, json));
    }
  }
  return compaction?.compacted ? { ...result, compaction } : result;
}

/** autoCompact compacts a session past its threshold, telling onCompaction. */
async function autoCompact(h: Handle, id: string, options: BuildContextAsyncOptions, summarize: Summarizer): Promise<CompactResult> {
  const plan: CompactPlan = JSON.parse(await native.compactPlan(h, compactJSON(options)));
  if (!plan.compactable) return { compacted: false, dryRun: false, plan, summarizerCalls: 0 };
  options.onCompaction?.({ phase: 'start', trigger: 'threshold', plan });
  const result = await runCompaction(h, id, plan, options, summarize, 'threshold');
  options.onCompaction?.({ phase: 'done', trigger: 'threshold', plan, result });
  return result;
}

/**
 * compact summarizes the turns before the last keepRecentTurns and writes a boundary:
 * later builds start there. No message is deleted or rewritten.
 */
export async function compact(h: Handle, id: string, options: CompactOptions): Promise<CompactResult> {
  if (typeof options !== 'object' || options === null) throw argTypeError('options', 'an object');
  if (!options.dryRun && typeof options.summarize !== 'function') throw summarizerTypeError();
  const plan: CompactPlan = JSON.parse(await native.compactPlan(h, compactJSON(options)));
  if (!plan.compactable || options.dryRun) return { compacted: false, dryRun: !!options.dryRun, plan, summarizerCalls: 0 };
  return runCompaction(h, id, plan, options, options.summarize!, 'manual');
}

async function runCompaction(h: Handle, id: string, plan: CompactPlan, options: CompactOptions,
  summarize: Summarizer, trigger: string): Promise<CompactResult> {
  const summarizerCalls = await ensureSummary(h, id, plan.cutSeq - 1, options, summarize);
  const boundary = JSON.parse(await native.commitCompaction(h, JSON.stringify({ cutSeq: plan.cutSeq, trigger })));
  return { compacted: true, dryRun: false, plan, boundary, summarizerCalls };
}

/**
 * ensureSummary has the summary of messages 0..toSeq made, step by step, each step cached
 * as it is stored; it returns how many summarizer calls it made itself.
 */
function ensureSummary(h: Handle, id: string, toSeq: number, options: CompactOptions, summarize: Summarizer): Promise<number> {
  const stepOptions = JSON.stringify({ toSeq, targetTokens: options.targetTokens, maxInputTokens: options.maxInputTokens });
  return oneAtATime(id, async () => {
    let calls = 0;
    let last = -1;
    for (;;) {
      const step = JSON.parse(await native.summaryStep(h, stepOptions));
      if (step === null) return calls;
      if (step.toSeq === last) throw new SessionError(`the summary of messages 0-${last} was not stored`, 'INTERNAL');
      last = step.toSeq;
      await summarizeStep(h, step, options.model ?? '', summarize);
      calls++;
    }
  });
}

/**
 * oneAtATime runs work once the session's earlier summary work has settled, so a concurrent
 * caller asks which summary is missing only after the first has stored it, and finds none.
 * Sharing a call only while it ran was not enough: a caller whose question was answered
 * before the summary was stored, but reached JS after the call ended, made it again.
 */
function oneAtATime<T>(id: string, work: () => Promise<T>): Promise<T> {
  const run = (summarizing.get(id) ?? Promise.resolve()).then(work);
  const settled = run.then(() => undefined, () => undefined);
  summarizing.set(id, settled);
  void settled.then(() => {
    if (summarizing.get(id) === settled) summarizing.delete(id);
  });
  return run;
}

async function summarizeStep(h: Handle, step: { toSeq: number; messages: unknown[]; targetTokens: number },
  model: string, summarize: Summarizer): Promise<void> {
  const text = await summarize(step.messages, step.targetTokens);
  if (typeof text !== 'string' || text.trim() === '') {
    throw new SessionError('The summarizer must resolve to a non-empty string; nothing was stored.', 'INVALID_ARGUMENT');
  }
  await native.storeSummary(h, JSON.stringify({ toSeq: step.toSeq, text, model }));
}

/** debugContext returns the report of the session's last built context, null before any. */
export function debugContext(h: Handle): ContextReport | null {
  return JSON.parse(native.debugContext(h));
}

/**
 * validateContext checks messages against the rules of a provider's API: roles, content,
 * tool calls each answered in the next message, no result without its call, signatures.
 */
export function validateContext(messages: unknown[], provider: ContextProvider = 'anthropic'): ContextValidation {
  if (!Array.isArray(messages)) throw argTypeError('messages', 'an array of messages');
  if (typeof provider !== 'string') throw argTypeError('provider', '"anthropic" or "openai"');
  return JSON.parse(native.validateContext(JSON.stringify(messages), provider));
}

function optionsJSON(options: BuildContextOptions): string {
  if (typeof options !== 'object' || options === null) throw argTypeError('options', 'an object with a contextWindow');
  if (typeof options.contextWindow !== 'number') throw argTypeError('options.contextWindow', 'a number');
  for (const key of ['systemPrompt', 'provider', 'strategy'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') throw argTypeError(`options.${key}`, 'a string');
  }
  const { contextWindow, systemPrompt, tools, reserve, reserveTokens, provider, strategy, recentTurns, compactThreshold } = options;
  return JSON.stringify({ contextWindow, systemPrompt, tools, reserve, reserveTokens, provider, strategy, recentTurns, compactThreshold });
}

function compactJSON(options: CompactOptions): string {
  return JSON.stringify({ keepRecentTurns: options.keepRecentTurns, targetTokens: options.targetTokens, maxInputTokens: options.maxInputTokens, model: options.model });
}

function summarizerTypeError(): TypeError {
  return argTypeError('summarize', 'an async function (messages, targetTokens) => Promise<string>');
}
