import type { SessionInfo } from '../types';
import { relativeTime } from '../relative-time';
import { cut, pad, padStart, type Style } from './style';

/**
 * sessionTable is the table for people of `sessionkeep ls` and /sessions: when, counts,
 * status, id, project (withProject) and title, cut to `width`.
 */
export function sessionTable(list: SessionInfo[], s: Style, width: number, withProject: boolean): string {
  const when = list.map((i) => relativeTime(i.updatedAt));
  const whenWidth = Math.max(7, ...when.map((w) => w.length));
  const head = [pad('UPDATED', whenWidth), padStart('MSGS', 5), padStart('TOOLS', 5), pad('STATUS', 11), pad('ID', 36)];
  if (withProject) head.push('PROJECT');
  head.push('TITLE');
  const fixed = whenWidth + 5 + 5 + 11 + 36 + 5 * 2;
  const lines = [s.bold(head.join('  '))];
  list.forEach((i, n) => {
    const status = i.status === 'active' ? pad(i.status, 11) : s.yellow(pad(i.status, 11));
    const row = [pad(when[n], whenWidth), padStart(String(i.messageCount), 5), padStart(String(i.toolCount), 5), status, i.id];
    let room = Math.max(20, width - fixed);
    if (withProject) {
      const project = cut(i.projectPath || i.key || '', Math.min(40, Math.floor(room / 2)));
      row.push(s.dim(project));
      room -= project.length + 2;
    }
    row.push(cut(i.title || s.dim('(untitled)'), Math.max(10, room)));
    lines.push(row.join('  '));
  });
  return lines.join('\n') + '\n';
}
