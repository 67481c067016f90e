// Pager moves through a server-side paged list: previous, next, and where we are.
import { formatCount } from '../format';

interface PagerProps {
  offset: number;
  limit: number;
  total: number;
  onOffset: (offset: number) => void;
}

export function Pager({ offset, limit, total, onOffset }: PagerProps) {
  const last = Math.min(offset + limit, total);
  return (
    <div class="pager">
      <button data-testid="prev-page" disabled={offset <= 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        ← Previous
      </button>
      <span>
        {total === 0 ? 'none' : `${formatCount(offset + 1)}–${formatCount(last)} of ${formatCount(total)}`}
      </span>
      <button data-testid="next-page" disabled={last >= total} onClick={() => onOffset(offset + limit)}>
        Next →
      </button>
    </div>
  );
}
