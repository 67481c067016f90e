import type { SessionInfo } from '../types';
import type { Style } from './style';
import { localTime } from '../resume-summary';
import { relativeTime } from '../relative-time';

/** header is the top of `show` and `info`: title, id, project, model, counts, status, times. */
export function header(info: SessionInfo, style: Style): string[] {
  const facts = [info.id, info.projectPath || info.key || '', info.model ?? '', count(info.messageCount, 'message'), count(info.toolCount, 'tool call')]
    .filter(Boolean);
  const status = info.status === 'active' ? info.status : style.yellow(info.status);
  const last = info.lastMessageAt ?? info.createdAt;
  return [
    style.bold(info.title || '(untitled)'),
    style.dim(facts.join(' · ')) + style.dim(' · ') + status,
    style.dim(`started ${localTime(new Date(info.createdAt))} · last message ${relativeTime(last)}`),
  ];
}

/** count writes n with its noun, plural unless n is 1. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
