// ChartCanvas draws one Chart.js chart on a canvas and draws it again when its configuration
// changes (the chart is destroyed first, so no canvas is shared by two charts).
import { useEffect, useRef } from 'preact/hooks';
import type { ChartConfiguration } from 'chart.js';
import { Chart } from '../charts';

interface ChartCanvasProps {
  config: ChartConfiguration;
  testid: string;
  /** Where the test id goes: on the wrapper (the usage charts) or on the canvas itself (the context chart). */
  testidOn?: 'wrapper' | 'canvas';
  label: string;
  height?: number;
}

export function ChartCanvas({ config, testid, testidOn = 'wrapper', label, height = 280 }: ChartCanvasProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, { ...config, options: { maintainAspectRatio: false, ...config.options } });
    return () => chart.destroy();
  }, [config]);
  return (
    <div class="chart" data-testid={testidOn === 'wrapper' ? testid : undefined} style={{ height: height + 'px' }}>
      <canvas ref={canvas} role="img" aria-label={label} data-testid={testidOn === 'canvas' ? testid : undefined} />
    </div>
  );
}
