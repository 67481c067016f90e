import type { Store } from '../store';
import type { ModelUsage, PriceOptions } from '../management-types';
import type { Query } from './query';

/** Token sums as the usage charts show them; cost in dollars, null without a price. */
interface Sums {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  costUsd: number | null;
}

/**
 * usage answers GET /api/usage?from=&to=&project=: tokens and cost by day and model, by
 * model, by project and by 5-hour window, from store.stats() (days are the server's local calendar days, as
 * `sessionkeep stats` counts them), priced by the built-in list prices under `serve --prices`.
 */
export async function usage(store: Store, q: Query, prices: PriceOptions) {
  const since = q.day('from');
  const until = q.day('to', true);
  const project = q.string('project');
  const stats = await store.statsAsync({ ...prices, since, until, projectPath: project, blocks: true });
  const byDay = stats.days.map((r) => ({ day: r.day, model: r.model, ...sums(r) }));
  const models = new Map<string, Sums>();
  for (const r of stats.days) models.set(r.model, add(models.get(r.model), sums(r)));
  const byModel = [...models].map(([model, s]) => ({ model, ...s }));
  const byProject = [];
  for (const path of await projectPaths(store, project)) {
    const st = await store.statsAsync({ ...prices, since, until, projectPath: path });
    if (st.totals.requests > 0) byProject.push({ project: path, ...sums(st.totals) });
  }
  const byBlock = (stats.blocks ?? []).map((b) => ({ start: b.start, end: b.end, lastAt: b.lastAt, requests: b.totals.requests, models: b.models.map((m) => m.model), ...sums(b.totals) }));
  return { byDay, byModel, byProject, byBlock, unpricedModels: stats.unpricedModels ?? [] };
}

/** projectPaths is every project that has sessions, or the one asked for. */
async function projectPaths(store: Store, project: string | undefined): Promise<string[]> {
  if (project !== undefined) return [project];
  const listed = await store.listSessionsAsync({ includeArchived: true, fields: ['projectPath'] });
  return [...new Set(listed.map((s) => s.projectPath))].sort();
}

function sums(u: ModelUsage): Sums {
  return {
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cacheReadTokens: u.cacheReadInputTokens,
    cacheCreationTokens: u.cacheCreationInputTokens,
    costUsd: u.cost ?? null,
  };
}

function add(a: Sums | undefined, b: Sums): Sums {
  if (!a) return b;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheCreationTokens: a.cacheCreationTokens + b.cacheCreationTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
  };
}
