import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Store } from '../store';
import type { Query } from './query';
import { withSession } from './open-session';
import { ApiError } from './respond';

/**
 * snapshotFile answers GET /api/sessions/:id/snapshots/:snapshotId/file?path=: one file's
 * content as the snapshot's message left it. The public API gives content only through
 * restoreFiles(), so the files are restored into a private temporary folder, the one asked
 * for is read, and the folder removed; the store is only read. Text comes back as UTF-8, other
 * bytes as base64; a file the snapshot records as deleted, or did not back up, has content null.
 */
export async function snapshotFile(store: Store, id: string, snapshotId: string, q: Query) {
  const wanted = q.string('path');
  if (wanted === undefined) throw new ApiError(400, 'INVALID_ARGUMENT', 'give the file with ?path=');
  return withSession(store, id, async (session) => {
    const snapshot = (await session.fileSnapshotsAsync()).find((s) => s.id === snapshotId);
    if (!snapshot) throw new ApiError(404, 'SNAPSHOT_NOT_FOUND', `the session has no file snapshot ${snapshotId}`);
    const file = snapshot.files.find((f) => f.path === wanted);
    if (!file) throw new ApiError(404, 'FILE_NOT_FOUND', `snapshot ${snapshotId} does not track ${wanted}`);
    if (file.state === 'deleted' || !file.backedUp) return { path: wanted, content: null, encoding: 'utf8' as const, state: file.state };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-serve-'));
    try {
      await session.restoreFiles(snapshot.messageUuid, { into: dir });
      const bytes = fs.readFileSync(path.join(dir, ...wanted.split('/')));
      const text = new TextDecoder('utf-8', { fatal: true });
      try {
        return { path: wanted, content: text.decode(bytes), encoding: 'utf8' as const, state: file.state };
      } catch {
        return { path: wanted, content: bytes.toString('base64'), encoding: 'base64' as const, state: file.state };
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
