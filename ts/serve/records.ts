import type { Store } from '../store';
import type { Envelope } from '../types';
import type { SessionTree } from '../branches';
import { withSession } from './open-session';
import { branchUuids } from './branch';

/** One session's records, every branch, by uuid, with its tree. */
export interface SessionRecords {
  tree: SessionTree;
  byUuid: Map<string, Envelope>;
}

/** How many sessions' records stay in memory: the ones being looked at. */
const CACHED_SESSIONS = 4;

/**
 * RecordCache holds the records of the sessions last read, so that paging through a
 * session reads it once, not once a page. The public API reads a branch only whole
 * (envelopes()) and only the head's; the JSONL export gives every record of every
 * branch, so one read serves any branch the viewer switches to. An entry is read again
 * when the session's listing changes (a message written, a rewind moving the tokens).
 */
export class RecordCache {
  readonly #store: Store;
  readonly #entries = new Map<string, { stamp: string; records: Promise<SessionRecords> }>();

  constructor(store: Store) {
    this.#store = store;
  }

  /** get returns the records of session `id` (a full id), reading them when not cached or changed. */
  async get(id: string): Promise<SessionRecords> {
    const info = this.#store.sessionInfo(id);
    const stamp = JSON.stringify([info.updatedAt, info.messageCount, info.status, info.tokens]);
    const cached = this.#entries.get(id);
    if (cached && cached.stamp === stamp) {
      this.#entries.delete(id);
      this.#entries.set(id, cached); // most recently used last
      return cached.records;
    }
    const records = this.#read(id);
    this.#entries.set(id, { stamp, records });
    records.catch(() => this.#entries.delete(id));
    while (this.#entries.size > CACHED_SESSIONS) this.#entries.delete(this.#entries.keys().next().value!);
    return records;
  }

  async #read(id: string): Promise<SessionRecords> {
    const [tree, exported] = await Promise.all([
      withSession(this.#store, id, (s) => s.treeAsync()),
      this.#store.export(id, { format: 'jsonl' }),
    ]);
    const jsonl = exported ?? '';
    const byUuid = new Map<string, Envelope>();
    let start = jsonl.indexOf('\n') + 1; // the first line describes the session
    while (start < jsonl.length) {
      let end = jsonl.indexOf('\n', start);
      if (end < 0) end = jsonl.length;
      if (end > start) {
        const e: Envelope = JSON.parse(jsonl.slice(start, end));
        byUuid.set(e.uuid, e);
      }
      start = end + 1;
    }
    return { tree, byUuid };
  }
}

/** branchEnvelopes is the branch that ends at `leaf` (the current one without), as envelopes. */
export function branchEnvelopes(records: SessionRecords, leaf?: string): Envelope[] {
  return branchUuids(records.tree, leaf).flatMap((u) => records.byUuid.get(u) ?? []);
}

/** branchPositions maps each record of the current branch of session `id` to its position on it. */
export async function branchPositions(store: Store, id: string): Promise<Map<string, number>> {
  const tree = await withSession(store, id, (s) => s.treeAsync());
  return new Map(branchUuids(tree).map((u, i) => [u, i]));
}
