import type { Store } from '../store';
import type { Envelope } from '../types';
import type { SessionTree } from '../branches';
import { withSession } from './open-session';
import { branchUuids } from './branch';
import { branchList, type BranchSummary } from './branch-list';
import { StampedCache } from './stamped-cache';

/** How many branches stay in memory: the sessions (and branches) being looked at. */
const CACHED_BRANCHES = 4;
/** How many sessions' positions (uuid → offset, for search hits) stay in memory. */
const CACHED_POSITIONS = 200;
/** How many sessions' every record stays in memory, to switch between their branches. */
const CACHED_SESSIONS = 2;
/** How many sessions' branch lists stay in memory: small, and the tree they come from is not. */
const CACHED_BRANCH_LISTS = 50;

/** Every record of a session, on every branch, with its tree. */
interface EveryRecord {
  tree: SessionTree;
  byUuid: Map<string, Envelope>;
}

/**
 * RecordCache holds the branches of the sessions last read, so that paging through a
 * session reads it once, not once a page. The public API reads a branch only whole, and
 * only the head's (envelopes(), about 130 ms for 20,000 messages); another branch, asked
 * for with a leaf, is cut from every record of the session (the JSONL export holds every
 * branch) along the session's tree, without rewinding anything; both are kept, so that
 * switching to a third branch reads nothing. A session is read again once it has changed
 * (a rewind included: see StampedCache).
 */
export class RecordCache {
  readonly #store: Store;
  readonly #branches: StampedCache<Envelope[]>;
  readonly #positions: StampedCache<Map<string, number>>;
  readonly #sessions: StampedCache<EveryRecord>;
  readonly #branchLists: StampedCache<BranchSummary[]>;

  constructor(store: Store) {
    this.#store = store;
    this.#branches = new StampedCache(store, CACHED_BRANCHES);
    this.#positions = new StampedCache(store, CACHED_POSITIONS);
    this.#sessions = new StampedCache(store, CACHED_SESSIONS);
    this.#branchLists = new StampedCache(store, CACHED_BRANCH_LISTS);
  }

  /** branch returns the records of the branch of session `id` (a full id) that ends at `leaf`, the current one without. */
  branch(id: string, leaf?: string): Promise<Envelope[]> {
    return this.#branches.get(id, `${id} ${leaf ?? ''}`, () =>
      leaf === undefined ? withSession(this.#store, id, (s) => s.envelopesAsync()) : this.#otherBranch(id, leaf));
  }

  /**
   * positions maps each record of the current branch of session `id` to its position on it,
   * kept apart from the branches: a search places hits in many sessions, and would
   * otherwise push out of memory the one being paged through.
   */
  positions(id: string): Promise<Map<string, number>> {
    return this.#positions.get(id, id, async () => {
      const branch = await withSession(this.#store, id, (s) => s.envelopesAsync());
      return new Map(branch.map((e, i) => [e.uuid, i]));
    });
  }

  /** branchList lists the branches of session `id` to switch to, the head's first (see branchList). */
  branchList(id: string): Promise<BranchSummary[]> {
    return this.#branchLists.get(id, id, () => withSession(this.#store, id, async (s) => branchList(await s.treeAsync())));
  }

  async #otherBranch(id: string, leaf: string): Promise<Envelope[]> {
    const { tree, byUuid } = await this.#sessions.get(id, id, async () => {
      const [tree, exported] = await Promise.all([
        withSession(this.#store, id, (s) => s.treeAsync()),
        this.#store.export(id, { format: 'jsonl' }),
      ]);
      return { tree, byUuid: everyRecord(exported ?? '') };
    });
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
