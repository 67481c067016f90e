import type { Store } from '../store';
import type { Envelope } from '../types';
import { withSession } from './open-session';
import { branchUuids } from './branch';

/** How many reads stay in memory: the sessions (and branches) being looked at. */
const CACHED_READS = 4;

/**
 * RecordCache holds the branches of the sessions last read, so that paging through a
 * session reads it once, not once a page. The public API reads a branch only whole, and
 * only the head's (envelopes(), about 130 ms for 20,000 messages); another branch, asked
 * for with a leaf, is cut from every record of the session (the JSONL export holds every
 * branch) along the session's tree, without rewinding anything. An entry is read again
 * when the session's listing changes (a message written, a rewind moving the tokens).
 */
export class RecordCache {
  readonly #store: Store;
  readonly #entries = new Map<string, { stamp: string; branch: Promise<Envelope[]> }>();

  constructor(store: Store) {
    this.#store = store;
  }

  /** branch returns the records of the branch of session `id` (a full id) that ends at `leaf`, the current one without. */
  async branch(id: string, leaf?: string): Promise<Envelope[]> {
    const info = this.#store.sessionInfo(id);
    const stamp = JSON.stringify([info.updatedAt, info.messageCount, info.status, info.tokens]);
    const key = `${id} ${leaf ?? ''}`;
    const cached = this.#entries.get(key);
    if (cached && cached.stamp === stamp) {
      this.#entries.delete(key);
      this.#entries.set(key, cached); // most recently used last
      return cached.branch;
    }
    const branch = leaf === undefined ? withSession(this.#store, id, (s) => s.envelopesAsync()) : this.#otherBranch(id, leaf);
    this.#entries.set(key, { stamp, branch });
    branch.catch(() => this.#entries.delete(key));
    while (this.#entries.size > CACHED_READS) this.#entries.delete(this.#entries.keys().next().value!);
    return branch;
  }

  async #otherBranch(id: string, leaf: string): Promise<Envelope[]> {
    const [tree, exported] = await Promise.all([
      withSession(this.#store, id, (s) => s.treeAsync()),
      this.#store.export(id, { format: 'jsonl' }),
    ]);
    const byUuid = everyRecord(exported ?? '');
    return branchUuids(tree, leaf).flatMap((u) => byUuid.get(u) ?? []);
  }
}

/** everyRecord reads sessionkeep's JSONL export: a line describing the session, then one envelope a line. */
function everyRecord(jsonl: string): Map<string, Envelope> {
  const byUuid = new Map<string, Envelope>();
  let start = jsonl.indexOf('\n') + 1;
  while (start > 0 && start < jsonl.length) {
    let end = jsonl.indexOf('\n', start);
    if (end < 0) end = jsonl.length;
    if (end > start) {
      const e: Envelope = JSON.parse(jsonl.slice(start, end));
      byUuid.set(e.uuid, e);
    }
    start = end + 1;
  }
  return byUuid;
}
