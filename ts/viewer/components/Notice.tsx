// Notice is a record that is not a message: a compaction boundary or summary (marked, since
// the model saw only what follows), a system notice, or a bookkeeping record shown raw.
import type { Envelope } from '../api-types';
import { blocksOf, sourceRecord, type RecordKind } from '../conversation';
import { formatTime } from '../format';
import { Blocks } from './Blocks';

interface NoticeProps {
  envelope: Envelope;
  kind: RecordKind;
}

export function Notice({ envelope, kind }: NoticeProps) {
  const record = sourceRecord(envelope);
  if (kind === 'compaction-boundary') {
    const meta = record.compactMetadata ?? {};
    return (
      <div class="compaction" data-testid="compaction" data-kind="boundary" data-uuid={envelope.uuid}>
        <span>Conversation compacted</span>
        {meta.trigger && <span> · {String(meta.trigger)}</span>}
        {meta.preTokens && <span> · {String(meta.preTokens)} tokens before</span>}
        <span class="when"> · {formatTime(envelope.timestamp)}</span>
      </div>
    );
  }
  if (kind === 'compaction-summary') {
    const summary = typeof record.summary === 'string' ? record.summary : null;
    return (
      <div class="compaction" data-testid="compaction" data-kind="summary" data-uuid={envelope.uuid}>
        <strong>Summary</strong>{summary && <span>: {summary}</span>}
        {!summary && <Blocks blocks={blocksOf(envelope)} />}
      </div>
    );
  }
  if (kind === 'system') {
    const text = record.content ?? record.cause?.code ?? record.subtype ?? 'system record';
    return (
      <div class={'notice level-' + (record.level ?? 'info')} data-uuid={envelope.uuid}>
        <span class="notice-kind">{record.level ?? 'system'}</span> {String(text)}
        <span class="when"> · {formatTime(envelope.timestamp)}</span>
      </div>
    );
  }
  return (
    <details class="notice raw" data-uuid={envelope.uuid}>
      <summary>{envelope.type} · {formatTime(envelope.timestamp)}</summary>
      <pre>{JSON.stringify(record, null, 2).slice(0, 20000)}</pre>
    </details>
  );
}
