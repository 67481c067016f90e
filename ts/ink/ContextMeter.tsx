import { Text } from 'ink';
import type { ContextResult } from '../index.js';
import { formatTokens } from './format.js';

/** What the meter reads of a built context (session.buildContext's result). */
export type MeteredContext = Pick<ContextResult, 'budget' | 'compactionDue'>;

export interface ContextMeterProps {
  /**
   * The last context built for the model (buildContext / buildContextAsync): the meter then
   * shows its utilisation of the window (full history, system prompt and tools) and the
   * builder's own `compactionDue`, and `tokens` and `contextWindow` are not needed.
   */
  context?: MeteredContext | null;
  /** Tokens the context holds now: `tokenUsage.contextTokens` of `usePersistentSession`. */
  tokens?: number;
  /** The model's context window in tokens. Without a positive one, only the count is shown. */
  contextWindow?: number;
  /** Where compaction starts, as a fraction of the window (0–1). Default 0.75. */
  threshold?: number;
  /** The bar's width in cells. Default 20. */
  width?: number;
  /** Written before the bar. Default "Context". */
  label?: string;
}

/**
 * ContextMeter shows how full the context window is, with the compaction threshold marked
 * in the bar (│):
 *
 *   Context ███████░░░░░░░░│░░░░░ 35% · 11.5k/32.8k · compacts at 75%
 *
 * The bar is green below the threshold, yellow from it ("compaction due"), and red once the
 * window is full. Given a built `context`, "compaction due" is the context builder's verdict.
 */
export function ContextMeter({ context, threshold = 0.75, width = 20, label = 'Context', ...counts }: ContextMeterProps) {
  const { tokens, contextWindow } = context ? fromBuilder(context) : counts;
  const used = tokens !== undefined && Number.isFinite(tokens) ? Math.max(0, tokens) : 0;
  if (!contextWindow || !(contextWindow > 0)) {
    return <Text>{label} {formatTokens(used)} tokens <Text dimColor>· window unknown</Text></Text>;
  }
  const cells = Math.max(1, Math.floor(width));
  const limit = clamp(threshold, 0, 1);
  const ratio = used / contextWindow;
  const filled = Math.round(clamp(ratio, 0, 1) * cells);
  const mark = Math.round(limit * cells);
  const due = context ? context.compactionDue : ratio >= limit;
  const state = ratio >= 1 ? 'full' : due ? 'due' : 'ok';
  const color = state === 'full' ? 'red' : state === 'due' ? 'yellow' : 'green';
  const before = Math.min(filled, mark);
  const after = Math.max(0, filled - mark);
  return (
    <Text>
      {label}{' '}
      <Text color={color}>{'█'.repeat(before)}</Text>
      <Text dimColor>{'░'.repeat(mark - before)}</Text>
      <Text bold color={state === 'ok' ? undefined : color}>│</Text>
      <Text color={color}>{'█'.repeat(after)}</Text>
      <Text dimColor>{'░'.repeat(cells - mark - after)}</Text>
      {' '}
      <Text color={state === 'ok' ? undefined : color}>{Math.round(ratio * 100)}%</Text>
      <Text dimColor> · {formatTokens(used)}/{formatTokens(contextWindow)}</Text>
      {state === 'ok' && <Text dimColor> · compacts at {Math.round(limit * 100)}%</Text>}
      {state === 'due' && <Text color="yellow"> · compaction due ({Math.round(limit * 100)}%)</Text>}
      {state === 'full' && <Text color="red"> · window full</Text>}
    </Text>
  );
}

function clamp(x: number, lo: number, hi: number): number {
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : lo;
}

/** fromBuilder reads the tokens and window of a built context: its utilisation of the window. */
function fromBuilder({ budget }: MeteredContext): { tokens: number; contextWindow: number } {
  return { tokens: (budget.utilizationPercent / 100) * budget.contextWindow, contextWindow: budget.contextWindow };
}
