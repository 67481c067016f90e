// UsageCharts are the usage page's three charts: tokens and cost by day, by model and by
// project, with cache reads and cache writes as series of their own.
import { useMemo } from 'preact/hooks';
import type { ChartConfiguration } from 'chart.js';
import type { UsageAnswer, UsageSums } from '../api-types';
import { SERIES_COLORS } from '../charts';
import { ChartCanvas } from './ChartCanvas';

/** The four token series, stacked into one bar per category. */
const TOKEN_SERIES: [keyof UsageSums, string, string][] = [
  ['inputTokens', 'input', SERIES_COLORS.input],
  ['outputTokens', 'output', SERIES_COLORS.output],
  ['cacheReadTokens', 'cache read', SERIES_COLORS.cacheRead],
  ['cacheCreationTokens', 'cache write', SERIES_COLORS.cacheWrite],
];

/** sumBy adds rows up per category (a day holds one row per model). */
function sumBy<T extends UsageSums>(rows: T[], category: (row: T) => string): Map<string, UsageSums> {
  const sums = new Map<string, UsageSums>();
  for (const row of rows) {
    const key = category(row);
    const sum = sums.get(key) ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, costUsd: null };
    sum.inputTokens += row.inputTokens ?? 0;
    sum.outputTokens += row.outputTokens ?? 0;
    sum.cacheReadTokens += row.cacheReadTokens ?? 0;
    sum.cacheCreationTokens += row.cacheCreationTokens ?? 0;
    if (typeof row.costUsd === 'number') sum.costUsd = (sum.costUsd ?? 0) + row.costUsd;
    sums.set(key, sum);
  }
  return sums;
}

/**
 * tokenChart is a stacked bar of the four token series per category, with the cost as a line
 * on its own axis when any category has one (no prices, no cost axis). Long labels (models,
 * projects) read better with horizontal bars.
 */
function tokenChart(sums: Map<string, UsageSums>, horizontal = false): ChartConfiguration {
  const labels = [...sums.keys()];
  const values = [...sums.values()];
  const datasets: any[] = TOKEN_SERIES.map(([key, label, color]) => ({
    type: 'bar',
    label,
    data: values.map((v) => v[key] ?? 0),
    backgroundColor: color,
    stack: 'tokens',
    [horizontal ? 'xAxisID' : 'yAxisID']: 'tokens',
  }));
  const priced = values.some((v) => typeof v.costUsd === 'number');
  if (priced) {
    datasets.push({
      type: 'line',
      label: 'cost ($)',
      data: values.map((v) => v.costUsd ?? 0),
      borderColor: SERIES_COLORS.cost,
      backgroundColor: SERIES_COLORS.cost,
      [horizontal ? 'xAxisID' : 'yAxisID']: 'cost',
    });
  }
  const category = horizontal ? 'y' : 'x';
  const tokenAxis = horizontal ? 'x' : 'y';
  return {
    type: 'bar',
    data: { labels, datasets },
    options: {
      indexAxis: category,
      interaction: { mode: 'index', intersect: false, axis: category },
      scales: {
        [category]: { stacked: true },
        tokens: { axis: tokenAxis, type: 'linear', position: horizontal ? 'bottom' : 'left', stacked: true, beginAtZero: true, title: { display: true, text: 'tokens' } },
        ...(priced && {
          cost: { axis: tokenAxis, type: 'linear', position: horizontal ? 'top' : 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: 'dollars' } },
        }),
      },
    },
  };
}

/** barsHeight gives each horizontal bar room enough for its label. */
function barsHeight(bars: number): number {
  return Math.max(200, 90 + bars * 34);
}

export function UsageCharts({ usage }: { usage: UsageAnswer }) {
  const byDay = useMemo(() => tokenChart(sumBy([...usage.byDay].sort((a, b) => a.day.localeCompare(b.day)), (r) => r.day)), [usage]);
  const byModel = useMemo(() => tokenChart(sumBy(usage.byModel, (r) => r.model), true), [usage]);
  const byProject = useMemo(() => tokenChart(sumBy(usage.byProject, (r) => r.project), true), [usage]);
  return (
    <>
      <section class="panel">
        <h3>By day</h3>
        <ChartCanvas config={byDay} testid="usage-by-day" label="tokens and cost by day" />
      </section>
      <section class="panel">
        <h3>By model</h3>
        <ChartCanvas config={byModel} testid="usage-by-model" label="tokens and cost by model" height={barsHeight(usage.byModel.length)} />
      </section>
      <section class="panel">
        <h3>By project</h3>
        <ChartCanvas config={byProject} testid="usage-by-project" label="tokens and cost by project" height={barsHeight(usage.byProject.length)} />
      </section>
    </>
  );
}
