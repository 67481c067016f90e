// SessionHeader is what a session is: its title, project, times, counts, tokens and cost by model.
import { useEffect } from 'preact/hooks';
import type { SessionAnswer } from '../api-types';
import { countOf, formatCost, formatTime, formatTokens } from '../format';

export function SessionHeader({ info }: { info: SessionAnswer['info'] }) {
  const t = info.tokens;
  // The tab says which session it shows.
  useEffect(() => {
    document.title = (info.title || info.id.slice(0, 8)) + ' · sessionkeep';
    return () => { document.title = 'sessionkeep'; };
  }, [info.title]);
  return (
    <header class="session-header">
      <h1 data-testid="session-title">{info.title || '(untitled)'}</h1>
      <div class="row-meta">
        <span>{info.projectPath}</span>
        <span>created {formatTime(info.createdAt)}</span>
        <span>updated {formatTime(info.updatedAt)}</span>
        {info.status !== 'active' && <span class={'badge status-' + info.status}>{info.status}</span>}
        <code class="id">{info.id}</code>
      </div>
      <div class="row-meta">
        <span>{countOf(info.interactions, 'prompt')}</span>
        <span>{countOf(info.messageCount, 'message')}</span>
        <span>{countOf(info.toolCount, 'tool call')}</span>
        <span>
          {formatTokens(t.inputTokens)} in · {formatTokens(t.outputTokens)} out · {formatTokens(t.cacheReadInputTokens)} cache read ·{' '}
          {formatTokens(t.cacheCreationInputTokens)} cache write
        </span>
        {info.cost !== undefined && <span>{formatCost(info.cost)}</span>}
        {info.usage.length > 0 && <span>{info.usage.map((u) => u.model).join(', ')}</span>}
      </div>
    </header>
  );
}
