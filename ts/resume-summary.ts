import type { ResumeSummary, SessionDetails } from './management-types';
import { relativeTime } from './relative-time';
import { totalTokens } from './token-totals';

const RULE = '━'.repeat(48);

/** resumeSummary builds seed 003's resume summary from a session's details. */
export function resumeSummary(d: SessionDetails, now: Date = new Date()): ResumeSummary {
  const t = d.tokens;
  const lastActivity = d.lastMessageAt ?? d.createdAt;
  const summary: Omit<ResumeSummary, 'text'> = {
    id: d.id,
    title: d.title,
    projectPath: d.projectPath,
    status: d.status,
    lastActivity,
    lastActivityAgo: relativeTime(lastActivity, now),
    interactions: d.interactions,
    messageCount: d.messageCount,
    toolCount: d.toolCount,
    totalTokens: totalTokens(t),
    tokens: t,
    contextTokens: t.contextTokens,
  };
  if (d.cost !== undefined) summary.cost = d.cost;
  if (d.contextWindow) {
    summary.contextWindow = d.contextWindow;
    summary.contextPercent = Math.round((t.contextTokens / d.contextWindow) * 1000) / 10;
  }
  return { ...summary, text: summaryText(summary) };
}

function summaryText(s: Omit<ResumeSummary, 'text'>): string {
  const lines = [
    'Session Resumed',
    RULE,
    `Session ID: ${s.id}`,
  ];
  if (s.title) lines.push(`Title: ${s.title}`);
  if (s.status !== 'active') lines.push(`Status: ${s.status}`);
  lines.push(
    `Last Activity: ${localTime(new Date(s.lastActivity))} (${s.lastActivityAgo})`,
    `Total Interactions: ${s.interactions}`,
    RULE,
    `Total Tokens Used: ${formatInt(s.totalTokens)}`,
  );
  if (s.cost !== undefined && s.totalTokens > 0) lines.push(`Total Cost: ${formatCost(s.cost)}`);
  lines.push(s.contextWindow
    ? `Context Usage: ${formatInt(s.contextTokens)} / ${formatInt(s.contextWindow)} tokens (${formatPercent(s.contextPercent!)})`
    : `Context Usage: ${formatInt(s.contextTokens)} tokens`);
  return lines.join('\n');
}

/** formatInt writes n with thousands separators: 45,234. */
export function formatInt(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** formatCost writes dollars with cents, and more digits below a cent: $0.23, $0.0042. */
export function formatCost(dollars: number): string {
  if (dollars > 0 && dollars < 0.01) return `$${dollars.toPrecision(2)}`;
  return `$${dollars.toFixed(2)}`;
}

function formatPercent(p: number): string {
  return p >= 1 || p === 0 ? `${Math.round(p)}%` : `${p.toFixed(1)}%`;
}

/** localTime writes a time in the local zone as 2025-10-21 23:09:18. */
export function localTime(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
