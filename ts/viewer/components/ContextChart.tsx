// ContextChart is the context size turn by turn (input + cache read + cache write of each
// turn's last request), against the session's context window.
import { useMemo } from 'preact/hooks';
import type { ChartConfiguration } from 'chart.js';
import type { ContextUsage } from '../api-types';
import { SERIES_COLORS } from '../charts';
import { useApi } from '../use-api';
import { ChartCanvas } from './ChartCanvas';
import { ErrorNote } from './ErrorNote';

export function ContextChart({ sessionId }: { sessionId: string }) {
  const usage = useApi<ContextUsage>(`sessions/${encodeURIComponent(sessionId)}/context-usage`);
  const config = useMemo((): ChartConfiguration | null => {
    const data = usage.data;
    if (!data || data.turns.length === 0) return null;
    const labels = data.turns.map((t) => String(t.turn));
    const datasets: any[] = [
      {
        type: 'line',
        label: 'context tokens',
        data: data.turns.map((t) => t.contextTokens),
        borderColor: SERIES_COLORS.input,
        backgroundColor: SERIES_COLORS.input + '33',
        fill: true,
        pointRadius: data.turns.length > 60 ? 0 : 2,
      },
    ];
    if (data.contextWindow) {
      datasets.push({
        type: 'line',
        label: 'context window',
        data: data.turns.map(() => data.contextWindow),
        borderColor: SERIES_COLORS.window,
        borderDash: [6, 4],
        pointRadius: 0,
      });
    }
    return {
      type: 'line',
      data: { labels, datasets },
      options: {
        scales: { x: { title: { display: true, text: 'turn' }, ticks: { maxRotation: 0, autoSkipPadding: 16 } }, y: { beginAtZero: true, title: { display: true, text: 'tokens' } } },
        interaction: { mode: 'index', intersect: false },
      },
    };
  }, [usage.data]);
  return (
    <section class="panel">
      <h3>Context size by turn</h3>
      {usage.error && <ErrorNote error={usage.error} />}
      {usage.data && !config && <p class="empty">No usage recorded.</p>}
      {config && <ChartCanvas config={config} testid="context-chart" testidOn="canvas" label="context tokens per turn against the context window" height={220} />}
    </section>
  );
}
