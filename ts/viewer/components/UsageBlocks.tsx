// UsageBlocks is the usage by 5-hour window, as subscription plans count it: the newest
// windows first, the one still open marked.
import type { UsageAnswer } from '../api-types';
import { formatCost, formatTime, formatTokens } from '../format';

const SHOWN = 20;

export function UsageBlocks({ blocks, now = Date.now() }: { blocks: UsageAnswer['byBlock']; now?: number }) {
  if (blocks.length === 0) return null;
  return (
    <section class="usage-blocks" data-testid="usage-blocks">
      <h3>By 5-hour window</h3>
      <table>
        <thead><tr><th>window</th><th>requests</th><th>tokens</th><th>cost</th><th>models</th></tr></thead>
        <tbody>
          {blocks.slice(-SHOWN).reverse().map((b) => {
            const open = now < Date.parse(b.end) && now - Date.parse(b.lastAt) < 5 * 3600_000;
            return (
              <tr key={b.start} class={open ? 'open' : ''}>
                <td>{formatTime(b.start)} – {formatTime(b.end).slice(11)}{open && <span class="badge status-streaming">active</span>}</td>
                <td>{b.requests}</td>
                <td>{formatTokens(b.inputTokens + b.outputTokens + b.cacheReadTokens + b.cacheCreationTokens)}</td>
                <td>{b.costUsd === null ? '–' : formatCost(b.costUsd)}</td>
                <td>{b.models.join(', ')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
