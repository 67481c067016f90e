// SessionRow is one session of the listing: title, project, when, size, and its search hits.
import type { ListedSession } from '../api-types';
import { countOf, formatTime, formatTokens } from '../format';
import { routeHash } from '../router';
import { Marked } from './Marked';
import { totalTokens } from '../../token-totals';

export function SessionRow({ session }: { session: ListedSession }) {
  const t = session.tokens;
  const tokens = t ? totalTokens(t) : 0;
  const href = routeHash('session/' + encodeURIComponent(session.id));
  return (
    <li class="session-row" data-testid="session-row" data-id={session.id}>
      <div class="row-main">
        <a class="row-title" href={href}>{session.title || '(untitled)'}</a>
        {session.status !== 'active' && <span class={'badge status-' + session.status}>{session.status}</span>}
        {session.provider && <span class="badge">{session.provider}</span>}
      </div>
      <div class="row-meta">
        <span title={session.projectPath}>{session.projectPath}</span>
        <span title={'created ' + formatTime(session.createdAt)}>{formatTime(session.updatedAt)}</span>
        <span>{countOf(session.messageCount, 'message')}</span>
        <span>{countOf(session.toolCount, 'tool call')}</span>
        <span>{formatTokens(tokens)} tokens</span>
        <code class="id">{session.id.slice(0, 8)}</code>
      </div>
      {session.hits && session.hits.length > 0 && (
        <ul class="hits">
          {session.hits.map((hit) => (
            <li key={hit.uuid + hit.seq} data-testid="search-hit">
              <a href={routeHash('session/' + encodeURIComponent(session.id), { at: hit.uuid })}>
                <span class="hit-role">{hit.role}</span> <Marked snippet={hit.snippet} />
              </a>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
