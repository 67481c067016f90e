// BranchTree lists the session's branches: the head's, then each one a rewind or an edit left,
// under the record it forked from. Choosing one shows the conversation that ends there.
import { useMemo } from 'preact/hooks';
import type { SessionTree } from '../api-types';
import { offBranches } from '../branches';
import { countOf, formatTime } from '../format';

interface BranchTreeProps {
  tree: SessionTree;
  /** The leaf being viewed; the head when absent. */
  leaf: string | null;
  onSelect: (leaf: string | null) => void;
}

export function BranchTree({ tree, leaf, onSelect }: BranchTreeProps) {
  const branches = useMemo(() => offBranches(tree), [tree]);
  const viewing = leaf ?? tree.head;
  const mainCount = tree.nodes.filter((n) => n.onBranch).length;
  return (
    <section class="panel" data-testid="branch-tree">
      <h3>Branches</h3>
      <ul class="branches">
        {tree.head && (
          <li>
            <button
              class={'branch-node' + (viewing === tree.head ? ' current' : '')}
              data-testid="branch-node"
              data-uuid={tree.head}
              onClick={() => onSelect(null)}
            >
              <span class="branch-label">head</span> {countOf(mainCount, 'record')}
            </button>
            {branches.length > 0 && (
              <ul>
                {branches.map((b) => (
                  <li key={b.leaf}>
                    <button
                      class={'branch-node' + (viewing === b.leaf ? ' current' : '')}
                      data-testid="branch-node"
                      data-uuid={b.leaf}
                      title={b.forkedFrom ? 'forks after: ' + b.forkedFrom.preview : 'a separate root'}
                      onClick={() => onSelect(b.leaf)}
                    >
                      <span class="branch-label">↳ {countOf(b.length, 'record')}</span> {b.preview.slice(0, 80)}
                      <span class="when"> · {formatTime(b.timestamp)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </li>
        )}
      </ul>
      {branches.length === 0 && <p class="empty">One branch: nothing was rewound or edited.</p>}
    </section>
  );
}
