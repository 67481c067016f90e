// BranchTree lists the session's branches as the server lists them: the head's, then each one
// a rewind or an edit left, under it. Choosing one shows the conversation that ends there.
import type { BranchSummary } from '../api-types';
import { countOf, formatTime } from '../format';

interface BranchTreeProps {
  /** The head's branch first (see GET /api/sessions/:id). */
  branches: BranchSummary[];
  /** The leaf being viewed; the head when absent. */
  leaf: string | null;
  onSelect: (leaf: string | null) => void;
}

export function BranchTree({ branches, leaf, onSelect }: BranchTreeProps) {
  const [head, ...others] = branches;
  const viewing = leaf ?? head?.leaf;
  return (
    <section class="panel" data-testid="branch-tree">
      <h3>Branches</h3>
      <ul class="branches">
        {head && (
          <li>
            <button
              class={'branch-node' + (viewing === head.leaf ? ' current' : '')}
              data-testid="branch-node"
              data-uuid={head.leaf}
              onClick={() => onSelect(null)}
            >
              <span class="branch-label">head</span> {countOf(head.records, 'record')}
            </button>
            {others.length > 0 && (
              <ul>
                {others.map((b) => (
                  <li key={b.leaf}>
                    <button
                      class={'branch-node' + (viewing === b.leaf ? ' current' : '')}
                      data-testid="branch-node"
                      data-uuid={b.leaf}
                      title={b.forkPreview !== undefined ? 'forks after: ' + b.forkPreview : 'a separate root'}
                      onClick={() => onSelect(b.leaf)}
                    >
                      <span class="branch-label">↳ {countOf(b.records, 'record')}</span> {b.preview.slice(0, 80)}
                      <span class="when"> · {formatTime(b.at)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </li>
        )}
      </ul>
      {others.length === 0 && <p class="empty">One branch: nothing was rewound or edited.</p>}
    </section>
  );
}
