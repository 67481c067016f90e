// DebugContext is the /debug context report: what the next model call would be sent from this
// session, how the strategy was chosen and what was left out.
import type { ContextReport } from '../api-types';
import { formatCount } from '../format';

export function DebugContext({ report }: { report: ContextReport | null }) {
  return (
    <section class="panel" data-testid="debug-context">
      <h3>Next call's context</h3>
      {!report ? (
        <p class="empty">No context has been built for this session yet.</p>
      ) : (
        <>
          <dl class="facts">
            <dt>strategy</dt><dd>{report.strategy}</dd>
            <dt>format</dt><dd>{report.format}</dd>
            <dt>tokens</dt><dd>{formatCount(report.tokensUsed)} of {formatCount(report.budget.contextWindow)} ({report.budget.utilizationPercent.toFixed(1)}%)</dd>
            <dt>messages sent</dt><dd>{formatCount(report.sentMessageCount)} of {formatCount(report.originalMessageCount)}</dd>
            <dt>compaction due</dt><dd>{report.compactionDue ? 'yes' : 'no'}</dd>
          </dl>
          <details>
            <summary>Full report</summary>
            <pre>{report.text}</pre>
          </details>
        </>
      )}
    </section>
  );
}
