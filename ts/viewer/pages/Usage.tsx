// UsagePage is where the tokens and the money went: by day, model and project, over a date
// range and one project or all, kept in the page's hash query.
import type { ProjectsAnswer, UsageAnswer } from '../api-types';
import { ErrorNote } from '../components/ErrorNote';
import { UsageBlocks } from '../components/UsageBlocks';
import { UsageCharts } from '../components/UsageCharts';
import { formatCost, formatTokens } from '../format';
import { navigate, routeHash } from '../router';
import { useApi } from '../use-api';

export function UsagePage({ params }: { params: URLSearchParams }) {
  const query = { from: params.get('from') ?? '', to: params.get('to') ?? '', project: params.get('project') ?? '' };
  const usage = useApi<UsageAnswer>('usage', query);
  const projects = useApi<ProjectsAnswer>('projects');
  const set = (changes: Partial<typeof query>) => navigate(routeHash('usage', { ...query, ...changes }));
  const value = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLSelectElement).value;
  const totals = usage.data?.byModel.reduce(
    (t, r) => ({
      tokens: t.tokens + r.inputTokens + r.outputTokens + r.cacheReadTokens + r.cacheCreationTokens,
      cost: typeof r.costUsd === 'number' ? (t.cost ?? 0) + r.costUsd : t.cost,
    }),
    { tokens: 0, cost: null as number | null },
  );
  return (
    <section class="usage-page">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <select data-testid="usage-project" value={query.project} onChange={(e) => set({ project: value(e) })}>
          <option value="">All projects</option>
          {projects.data?.projects.map((p) => <option key={p.path} value={p.path}>{p.path}</option>)}
        </select>
        <label>from <input data-testid="usage-from" type="date" value={query.from} onChange={(e) => set({ from: value(e) })} /></label>
        <label>to <input data-testid="usage-to" type="date" value={query.to} onChange={(e) => set({ to: value(e) })} /></label>
      </form>
      {usage.error && <ErrorNote error={usage.error} />}
      {totals && (
        <p class="summary">
          {formatTokens(totals.tokens)} tokens · {totals.cost === null ? 'no model has a price' : formatCost(totals.cost)}
          {usage.data && usage.data.unpricedModels.length > 0 && ` · no price for ${usage.data.unpricedModels.join(', ')}`}
        </p>
      )}
      {usage.data && <UsageCharts usage={usage.data} />}
      {usage.data && <UsageBlocks blocks={usage.data.byBlock} />}
      {!usage.data && usage.loading && <p class="loading">Loading…</p>}
    </section>
  );
}
