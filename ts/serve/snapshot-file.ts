import type { Store } from '../store';
import { SessionError } from '../errors';
import type { Query } from './query';
import { withSession } from './open-session';
import { ApiError } from './respond';

/** SnapshotFileAnswer is one file of a snapshot as the API sends it. */
export interface SnapshotFileAnswer {
  path: string;
  /** UTF-8 text, or base64 when the bytes are not valid UTF-8; null when there are none. */
  content: string | null;
  encoding: 'utf8' | 'base64';
  state: 'present' | 'deleted';
}

/**
 * snapshotFile answers GET /api/sessions/:id/snapshots/:snapshotId/file?path=: one file's
 * content as the snapshot recorded it, read with session.fileContentAsync(), so nothing is
 * written anywhere. A file the snapshot records as deleted has content null, and so has one
 * it tracks without its content (an import without the backup: BACKUP_MISSING), which is
 * still a file of the snapshot to show. SNAPSHOT_NOT_FOUND and FILE_NOT_FOUND are the
 * store's, 404.
 */
export async function snapshotFile(store: Store, id: string, snapshotId: string, q: Query): Promise<SnapshotFileAnswer> {
  const wanted = q.string('path');
  if (wanted === undefined) throw new ApiError(400, 'INVALID_ARGUMENT', 'give the file with ?path=');
  return withSession(store, id, async (session) => {
    let bytes: Buffer | null;
    try {
      bytes = await session.fileContentAsync(snapshotId, wanted);
    } catch (err) {
      if (err instanceof SessionError && err.code === 'BACKUP_MISSING') return { path: wanted, content: null, encoding: 'utf8', state: 'present' };
      throw err;
    }
    if (bytes === null) return { path: wanted, content: null, encoding: 'utf8', state: 'deleted' };
    try {
      return { path: wanted, content: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf8', state: 'present' };
    } catch {
      return { path: wanted, content: bytes.toString('base64'), encoding: 'base64', state: 'present' };
    }
  });
}
