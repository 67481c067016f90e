// charts registers the parts of Chart.js the viewer uses (bar and line charts on category and
// linear axes), so the bundle leaves the rest out, and holds the series colours.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip);
// No animation: the charts are read, not watched, and a screenshot shows them drawn.
Chart.defaults.animation = false;
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", sans-serif';

export { Chart };

/** The colour of each token series, the same on every chart. */
export const SERIES_COLORS = {
  input: '#4e79a7',
  output: '#f28e2b',
  cacheRead: '#59a14f',
  cacheWrite: '#e15759',
  cost: '#333333',
  window: '#b07aa1',
};
