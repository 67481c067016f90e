import { pad, padStart, type Style } from '../render/style';
import { formatCost, formatInt, localTime } from '../resume-summary';
import type { UsageBlock } from '../management-types';

const FIVE_HOURS = 5 * 3600_000;

/**
 * blockLines is `stats --blocks` for people: one line per 5-hour window, as subscription
 * plans count usage, with its models, requests, tokens and cost; the window still open now
 * is marked active, with the time it has left.
 */
export function blockLines(blocks: UsageBlock[], s: Style, now = Date.now()): string[] {
  const head = [pad('BLOCK START', 19), pad('', 12), padStart('REQS', 6), padStart('TOKENS', 13), padStart('COST', 10), 'MODELS'];
  const lines = [s.bold(head.join('  '))];
  for (const b of blocks) {
    const t = b.totals;
    const tokens = t.inputTokens + t.outputTokens + t.cacheReadInputTokens + t.cacheCreationInputTokens;
    const end = Date.parse(b.end);
    const active = now < end && now - Date.parse(b.lastAt) < FIVE_HOURS;
    const state = active ? `active, ${Math.ceil((end - now) / 60_000)}m left` : '';
    lines.push([pad(localTime(new Date(b.start)), 19), pad(state, 12), padStart(formatInt(t.requests), 6), padStart(formatInt(tokens), 13),
      padStart(t.cost === undefined ? '–' : formatCost(t.cost), 10), b.models.map((m) => m.model).join(', ')].join('  '));
  }
  return lines;
}
