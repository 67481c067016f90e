// OwnCompaction marks sessionkeep's own compaction of a session (compact(), or
// buildContextAsync with a summarizer), which writes no record into the conversation: from
// the /debug context report, when and why it compacted and what the model is sent since.
// RecordList puts it where it was made among the records.
import type { ContextReport } from '../api-types';
import { formatCount, formatTime } from '../format';

/** CompactionReport is what the mark needs of a context report (an exported page carries just this). */
export type CompactionReport = Pick<ContextReport, 'boundary' | 'summary'>;

export function OwnCompaction({ report }: { report: CompactionReport | null }) {
  const boundary = report?.boundary;
  if (!boundary) return null;
  const summary = report.summary;
  return (
    <div class="compaction" data-testid="sessionkeep-compaction">
      <strong>Compacted by sessionkeep</strong>
      <span> · {boundary.trigger}</span>
      <span> · {formatCount(boundary.tokensBefore)} → {formatCount(boundary.tokensAfter)} tokens</span>
      <span class="when"> · {formatTime(boundary.createdAt)}</span>
      {summary && (
        <div>
          From here the model is sent a summary ({formatCount(summary.tokens)} tokens{summary.model ? ', by ' + summary.model : ''}) of
          messages {summary.fromSeq + 1}–{summary.toSeq + 1} in place of them; the messages themselves are all kept and shown.
        </div>
      )}
    </div>
  );
}
