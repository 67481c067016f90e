import { encode } from './serialize';
import { argTypeError, SessionError } from './errors';
import { native } from './native';
import type { Session } from './session';
import type {
  BuildContextOptions, ContextAttempt, ContextFormat, ContextResult, ContextStrategyDefinition, StrategyOutput,
} from './context-types';

/**
 * Context strategies registered from JavaScript (seed 004's strategy interface), per
 * process: every session of every store tries them, in priority order among the built-in
 * ones. The native builder cannot call into JavaScript (buildContextAsync runs off the JS
 * thread), so a build with registered strategies is driven from here: the built-ins of
 * each band of priorities in one native call, then a registered strategy's build(), whose
 * messages the native builder measures, repairs and validates as it does its own.
 */
const registered: ContextStrategyDefinition[] = [];

/** A built-in strategy, as the native builder lists them. */
interface Builtin { name: string; priority: number; minTokens: number }

let builtins: Builtin[] | undefined;

function builtinStrategies(): Builtin[] {
  builtins ??= JSON.parse(native.contextStrategies()).map((b: { name: string; priority: number | null; minTokens: number }) =>
    ({ ...b, priority: b.priority ?? Infinity }));
  return builtins!;
}

/** isBuiltin reports whether a strategy is one of the native builder's own. */
export function isBuiltin(name: string): boolean {
  return builtinStrategies().some((b) => b.name === name);
}

/**
 * registerStrategy adds a context strategy for every build in this process, tried in
 * priority order with the built-in ones (a built-in one first at equal priority). It
 * returns a function that removes it again.
 */
export function registerStrategy(strategy: ContextStrategyDefinition): () => void {
  if (typeof strategy !== 'object' || strategy === null) throw argTypeError('strategy', 'an object { name, priority, minTokens, build }');
  const { name, priority, minTokens = 0, build } = strategy;
  if (typeof name !== 'string' || name === '') throw argTypeError('strategy.name', 'a non-empty string');
  if (typeof priority !== 'number' || !Number.isFinite(priority)) throw argTypeError('strategy.priority', 'a finite number');
  if (typeof minTokens !== 'number' || !(minTokens >= 0) || !Number.isFinite(minTokens)) throw argTypeError('strategy.minTokens', 'a number of tokens, 0 or more');
  if (typeof build !== 'function') throw argTypeError('strategy.build', 'a function (input) => messages');
  if (isBuiltin(name) || registered.some((r) => r.name === name)) {
    throw new SessionError(`A context strategy named "${name}" exists already; give yours another name.`, 'INVALID_ARGUMENT');
  }
  const entry: ContextStrategyDefinition = { name, priority, minTokens, build };
  registered.push(entry);
  return () => {
    const i = registered.indexOf(entry);
    if (i >= 0) registered.splice(i, 1);
  };
}

/** A step of a build: a native build (options as JSON), or a registered strategy's build(). */
export type BuildStep =
  | { kind: 'native'; json: string; candidateOf?: string }
  | { kind: 'strategy'; strategy: ContextStrategyDefinition; input: Parameters<ContextStrategyDefinition['build']>[0] };

/** What the driver hands back: a ContextResult for a native step, build()'s return for a strategy. */
type StepResult = ContextResult | unknown;

/**
 * buildSteps yields the steps of one build with options (the native options object) and
 * returns its result; buildContext drives it on the calling thread, buildContextAsync with
 * await. Without registered strategies it is one native build, as before.
 */
export function* buildSteps(session: Session, options: Record<string, unknown>, caller: BuildContextOptions): Generator<BuildStep, ContextResult, StepResult> {
  const order = tryOrder(options.strategy as string | undefined);
  if (!order.some((s) => 'build' in s)) return (yield { kind: 'native', json: encode(options) }) as ContextResult;
  const format = (options.format as ContextFormat | undefined) ?? 'anthropic';
  let first = order[0] && !('build' in order[0]) ? options.strategy : undefined;
  let above: number | undefined = order[0] && 'build' in order[0] ? order[0].priority : undefined;
  let attempts: ContextAttempt[] = [];
  for (const s of order) {
    if (!('build' in s)) continue;
    // The built-ins before it, in one call; it tells the budget even when there are none.
    const band = (yield nativeStep({ ...options, strategy: first, priorityAbove: above, priorityThrough: s.priority, attempts })) as ContextResult;
    if (band.strategy) return band;
    attempts = band.debug.attempts;
    first = undefined;
    above = s.priority;
    let messages: unknown = [];
    let counts: Omit<StrategyOutput, 'messages'> = {};
    if (s.minTokens! <= band.budget.availableTokens) {
      const input = { session, budget: band.budget, tokenBudget: band.budget.availableTokens, format, options: caller,
        countTokens: (msgs: unknown[]) => countTokens(s.name, msgs, format) };
      ({ messages, ...counts } = output(s.name, yield { kind: 'strategy', strategy: s, input }));
    }
    const candidate = { strategy: s.name, minTokens: s.minTokens, messages, ...counts };
    const tried = (yield nativeStep({ ...options, strategy: undefined, candidate, attempts }, s.name)) as ContextResult;
    if (tried.strategy) return tried;
    attempts = tried.debug.attempts;
  }
  return (yield nativeStep({ ...options, strategy: first, priorityAbove: above, attempts })) as ContextResult;
}

function nativeStep(options: Record<string, unknown>, candidateOf?: string): BuildStep {
  return { kind: 'native', json: encode(options), candidateOf };
}

/** tryOrder returns the strategies a build tries, built-in and registered, from the named first one. */
function tryOrder(first: string | undefined): (Builtin | ContextStrategyDefinition)[] {
  const regs = [...registered].sort((a, b) => a.priority - b.priority);
  const order: (Builtin | ContextStrategyDefinition)[] = [];
  for (const b of builtinStrategies()) {
    while (regs.length > 0 && regs[0].priority < b.priority) order.push(regs.shift()!);
    order.push(b);
  }
  if (first === undefined) return order;
  const i = order.findIndex((s) => s.name === first);
  if (i < 0) {
    throw new SessionError(`unknown strategy "${first}"; the strategies are ${order.map((s) => s.name).join(', ')}`, 'INVALID_ARGUMENT');
  }
  return order.slice(i);
}

/** output checks what a strategy's build() returned: messages, or { messages, counts }. */
function output(name: string, out: unknown): StrategyOutput {
  const o: StrategyOutput = Array.isArray(out) ? { messages: out } : out as StrategyOutput;
  if (typeof o !== 'object' || o === null || !Array.isArray(o.messages)) {
    throw strategyFailed(name, 'build() must return an array of messages or { messages, includedCount?, summarizedCount? }');
  }
  for (const key of ['includedCount', 'summarizedCount'] as const) {
    if (o[key] !== undefined && !Number.isInteger(o[key])) throw strategyFailed(name, `build() returned a ${key} that is not an integer`);
  }
  return { messages: o.messages, includedCount: o.includedCount, summarizedCount: o.summarizedCount };
}

/** countTokens measures messages as the builder will: the yardstick given to build(). */
function countTokens(name: string, messages: unknown[], format: ContextFormat): number {
  if (!Array.isArray(messages)) throw argTypeError('messages', 'an array of messages');
  try {
    return JSON.parse(native.countContextTokens(encode(messages), format));
  } catch (e) {
    throw asStrategyError(name, e);
  }
}

/** strategyFailed is the error of a registered strategy that failed or returned something unusable. */
export function strategyFailed(name: string, message: string, cause?: unknown): SessionError {
  return new SessionError(`context strategy "${name}": ${message}. Nothing stored changed.`, 'STRATEGY_FAILED', cause === undefined ? undefined : { cause });
}

/**
 * asStrategyError turns a native INVALID_MESSAGE about the messages of strategy `name` into
 * STRATEGY_FAILED; with no name (a build of built-ins only) the error stays as it is.
 */
export function asStrategyError(name: string | undefined, e: unknown): unknown {
  if (name !== undefined && e instanceof SessionError && e.code === 'INVALID_MESSAGE') return strategyFailed(name, e.message, e);
  return e;
}
