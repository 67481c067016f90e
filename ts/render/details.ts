import type { ModelUsage, ResumeSummary, SessionDetails } from '../management-types';
import { formatCost, formatInt, localTime } from '../resume-summary';
import { header } from './header';
import type { Style } from './style';

/**
 * detailLines is the text for people of `sessionkeep info` and /session info: the header,
 * times, counts, usage by model and the resume summary.
 */
export function detailLines(details: SessionDetails, summary: ResumeSummary, s: Style): string[] {
  const time = (t?: string) => (t ? localTime(new Date(t)) : '–');
  const rows: [string, string][] = [
    ['created', time(details.createdAt)],
    ['last message', time(details.lastMessageAt)],
    ['last accessed', time(details.lastAccessedAt)],
    ['interactions', String(details.interactions)],
    ['messages', `${details.messageCount} (${details.interactions} prompts, ${details.assistantMessages} from the assistant, ${details.toolResultMessages} of tool results)`],
    ['tool calls', String(details.toolCount)],
  ];
  if (details.provider) rows.push(['provider', details.provider]);
  if (details.contextWindow) rows.push(['context window', formatInt(details.contextWindow)]);
  if (details.key) rows.push(['key', details.key]);
  if (details.checkpoint !== undefined) rows.push(['checkpoint', String(details.checkpoint)]);
  if (details.sdkSessionId) rows.push(['SDK session', details.sdkSessionId]);
  if (details.archivedAt) rows.push(['archived', time(details.archivedAt)]);
  if (details.corruption) rows.push(['corruption', s.red(details.corruption)]);
  const lines = [...header(details, s), ''];
  for (const [k, v] of rows) lines.push(`${s.dim(k.padEnd(15))}${v}`);
  if (details.usage.length > 0) lines.push('', s.bold('Usage by model'), ...usageLines(details.usage));
  if (details.unpricedModels?.length) lines.push(s.dim(`no price for ${details.unpricedModels.join(', ')}; not counted in the cost (give one with --prices)`));
  lines.push('', summary.text);
  return lines;
}

/** hourWrites names the part of a model's cache writes kept for an hour, which costs more. */
const hourWrites = (u: ModelUsage): string => (u.cacheCreation1hInputTokens > 0 ? ` (${formatInt(u.cacheCreation1hInputTokens)} for 1 h)` : '');

/** usageLines is one line per model: requests, tokens in, out and cached, and the cost when priced. */
export function usageLines(usage: ModelUsage[]): string[] {
  return usage.map((u) => {
    const cost = u.cost !== undefined ? `  ${formatCost(u.cost)}` : '';
    return `  ${u.model || '(unknown)'}: ${u.requests} requests, ${formatInt(u.inputTokens)} in, ${formatInt(u.outputTokens)} out, ` +
      `${formatInt(u.cacheReadInputTokens)} cache read, ${formatInt(u.cacheCreationInputTokens)} cache write${hourWrites(u)}${cost}`;
  });
}
