// Snapshots lists the session's file snapshots; two chosen ones (the last two by default)
// are compared in a diff below.
import { useState } from 'preact/hooks';
import type { FileSnapshot } from '../api-types';
import { formatTime } from '../format';
import { SnapshotDiff } from './SnapshotDiff';

export function Snapshots({ sessionId, snapshots }: { sessionId: string; snapshots: FileSnapshot[] }) {
  const withFiles = snapshots.filter((s) => s.files.length > 0);
  const [from, setFrom] = useState<string | null>(withFiles.length >= 2 ? withFiles[withFiles.length - 2].id : null);
  const [to, setTo] = useState<string | null>(withFiles.length >= 1 ? withFiles[withFiles.length - 1].id : null);
  const byId = new Map(snapshots.map((s) => [s.id, s]));
  const a = from ? byId.get(from) : undefined;
  const b = to ? byId.get(to) : undefined;
  return (
    <section class="panel">
      <h3>File snapshots</h3>
      {snapshots.length === 0 ? (
        <p class="empty">None recorded.</p>
      ) : (
        <table class="snapshots">
          <thead>
            <tr><th title="compare from">A</th><th title="compare to">B</th><th>at</th><th>files</th></tr>
          </thead>
          <tbody>
            {snapshots.map((s) => (
              <tr key={s.id} data-testid="snapshot" data-id={s.id}>
                <td><input type="radio" name="snapshot-from" checked={from === s.id} onChange={() => setFrom(s.id)} aria-label="compare from" /></td>
                <td><input type="radio" name="snapshot-to" checked={to === s.id} onChange={() => setTo(s.id)} aria-label="compare to" /></td>
                <td><a href={'#m-' + s.messageUuid} onClick={(e) => { e.preventDefault(); document.getElementById('m-' + s.messageUuid)?.scrollIntoView(); }}>{formatTime(s.timestamp)}</a>{s.isUpdate ? ' (update)' : ''}</td>
                <td>{s.files.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {a && b && a.id !== b.id && <SnapshotDiff key={a.id + b.id} sessionId={sessionId} from={a} to={b} />}
    </section>
  );
}
