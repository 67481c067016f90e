import { argTypeError, SessionError } from './errors';
import { encode } from './serialize';
import { oneAtATime } from './one-at-a-time';
import { native, Handle } from './native';
import type { Session } from './session';
import { asStrategyError, buildSteps, isBuiltin, strategyFailed } from './strategies';
import type {
  BuildContextAsyncOptions, BuildContextOptions, CompactOptions, CompactPlan, CompactResult, ContextFormat,
  ContextReport, ContextResult, ContextStrategyDefinition, ContextValidation, StrategyInput, Summarizer,
} from './context-types';

/**
 * The summary work of each session by id, chained so that a session makes one summary at a
 * time: a concurrent caller asks which summary is missing only after the first has stored
 * it, and finds none. Sharing a call only while it ran was not enough: a caller whose
 * question was answered before the summary was stored, but reached JS after the call
 * ended, made it again.
 */
const summarizing = new Map<string, Promise<void>>();

/** buildContext builds the next call's messages within the budget, on the calling thread. */
export function buildContext(session: Session, h: Handle, options: BuildContextOptions): ContextResult {
  const steps = buildSteps(session, optionsObject(options), options);
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value;
    const s = step.value;
    step = steps.next(s.kind === 'native' ? nativeBuild(s, (json) => native.buildContext(h, json)) : callSync(s.strategy, s.input));
  }
}

/**
 * buildContextAsync builds off the JS thread. With a summarizer it compacts when compaction
 * is due, and has a summary made when the context it built leaves stored messages out.
 */
export async function buildContextAsync(session: Session, h: Handle, options: BuildContextAsyncOptions): Promise<ContextResult> {
  const opts = optionsObject(options);
  const summarize = options.summarize;
  if (summarize !== undefined && typeof summarize !== 'function') throw summarizerTypeError();
  const build = () => buildAsync(session, h, opts, options);
  let result = await build();
  if (!summarize) return result;
  let compaction: CompactResult | undefined;
  if (result.compactionDue && options.autoCompact !== false) {
    compaction = await autoCompact(h, session.id, options, summarize);
    if (compaction.compacted) result = await build();
  }
  if (leavesMessagesOut(result)) {
    const { cut, ok } = JSON.parse(await native.summaryCut(h, encode({ ...opts, strategy: undefined })));
    if (ok && await ensureSummary(h, session.id, cut - 1, options, summarize) > 0) result = await build();
  }
  return compaction?.compacted ? { ...result, compaction } : result;
}

/** buildAsync drives a build's steps, the native ones off the JS thread. */
async function buildAsync(session: Session, h: Handle, opts: Record<string, unknown>, options: BuildContextOptions): Promise<ContextResult> {
  const steps = buildSteps(session, opts, options);
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value;
    const s = step.value;
    step = steps.next(s.kind === 'native'
      ? await nativeBuildAsync(s, (json) => native.buildContextAsync(h, json))
      : await callAsync(s.strategy, s.input));
  }
}

/**
 * leavesMessagesOut reports whether a built-in strategy left stored messages out that a
 * summary would stand for; a registered strategy's choice is left as it is.
 */
function leavesMessagesOut(result: ContextResult): boolean {
  return isBuiltin(result.strategy) && result.debug.omitted.messageCount > 0;
}

function nativeBuild(step: { json: string; candidateOf?: string }, build: (json: string) => string): ContextResult {
  try {
    return JSON.parse(build(step.json));
  } catch (e) {
    throw asStrategyError(step.candidateOf, e);
  }
}

async function nativeBuildAsync(step: { json: string; candidateOf?: string }, build: (json: string) => Promise<string>): Promise<ContextResult> {
  try {
    return JSON.parse(await build(step.json));
  } catch (e) {
    throw asStrategyError(step.candidateOf, e);
  }
}

/** callSync runs a registered strategy's build() for buildContext, which cannot wait for a Promise. */
function callSync(strategy: ContextStrategyDefinition, input: StrategyInput): unknown {
  let out: unknown;
  try {
    out = strategy.build(input);
  } catch (e) {
    throw strategyFailed(strategy.name, `build() threw: ${errorMessage(e)}`, e);
  }
  if (isThenable(out)) {
    out.then(undefined, () => {}); // its rejection is not this build's any more
    throw strategyFailed(strategy.name, 'build() returned a Promise, and buildContext is synchronous; use buildContextAsync, or make build() synchronous');
  }
  return out;
}

/** callAsync runs a registered strategy's build() for buildContextAsync. */
async function callAsync(strategy: ContextStrategyDefinition, input: StrategyInput): Promise<unknown> {
  try {
    return await strategy.build(input);
  } catch (e) {
    throw strategyFailed(strategy.name, `build() threw: ${errorMessage(e)}`, e);
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
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
  const boundary = JSON.parse(await native.commitCompaction(h, encode({ cutSeq: plan.cutSeq, trigger })));
  return { compacted: true, dryRun: false, plan, boundary, summarizerCalls };
}

/**
 * ensureSummary has the summary of messages 0..toSeq made, step by step, each step cached
 * as it is stored; it returns how many summarizer calls it made itself.
 */
function ensureSummary(h: Handle, id: string, toSeq: number, options: CompactOptions, summarize: Summarizer): Promise<number> {
  const stepOptions = encode({ toSeq, targetTokens: options.targetTokens, maxInputTokens: options.maxInputTokens });
  return oneAtATime(summarizing, id, async () => {
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

async function summarizeStep(h: Handle, step: { toSeq: number; messages: unknown[]; targetTokens: number },
  model: string, summarize: Summarizer): Promise<void> {
  const text = await summarize(step.messages, step.targetTokens);
  if (typeof text !== 'string' || text.trim() === '') {
    throw new SessionError('The summarizer must resolve to a non-empty string; nothing was stored.', 'INVALID_ARGUMENT');
  }
  await native.storeSummary(h, encode({ toSeq: step.toSeq, text, model }));
}

/** debugContext returns the report of the session's last built context, null before any. */
export function debugContext(h: Handle): ContextReport | null {
  return JSON.parse(native.debugContext(h));
}

/**
 * validateContext checks messages against the rules of the API of `format`: roles, content,
 * tool calls each answered in the next message, no result without its call, signatures.
 */
export function validateContext(messages: unknown[], format: ContextFormat = 'anthropic'): ContextValidation {
  if (!Array.isArray(messages)) throw argTypeError('messages', 'an array of messages');
  if (typeof format !== 'string') throw argTypeError('format', '"anthropic" or "openai"');
  return JSON.parse(native.validateContext(encode(messages), format));
}

function optionsObject(options: BuildContextOptions): Record<string, unknown> {
  if (typeof options !== 'object' || options === null) throw argTypeError('options', 'an object with a contextWindow');
  if (typeof options.contextWindow !== 'number') throw argTypeError('options.contextWindow', 'a number');
  for (const key of ['systemPrompt', 'format', 'strategy'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') throw argTypeError(`options.${key}`, 'a string');
  }
  const { contextWindow, systemPrompt, tools, reserve, reserveTokens, format, strategy, unprunedTurns, compactThreshold } = options;
  return { contextWindow, systemPrompt, tools, reserve, reserveTokens, format, strategy, unprunedTurns, compactThreshold };
}

function compactJSON(options: CompactOptions): string {
  return encode({ keepRecentTurns: options.keepRecentTurns, targetTokens: options.targetTokens, maxInputTokens: options.maxInputTokens, model: options.model });
}

function summarizerTypeError(): TypeError {
  return argTypeError('summarize', 'an async function (messages, targetTokens) => Promise<string>');
}
