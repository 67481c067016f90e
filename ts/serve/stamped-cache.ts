import type { Store } from '../store';
import { withSession } from './open-session';

/**
 * StampedCache keeps the last `size` values read from sessions, each with the stamp of its
 * session when it was read: a value is read again once the session has changed. The stamp
 * is the session's listing (a message written, a rewind that moves its tokens) and, for a
 * cache made `followingHead`, the last record of its current branch, since a rewind
 * between branches of the same tokens changes nothing in the listing. A failed read is not
 * kept.
 */
export class StampedCache<T> {
  readonly #store: Store;
  readonly #size: number;
  readonly #followingHead: boolean;
  readonly #entries = new Map<string, { stamp: string; value: Promise<T> }>();
  /** The gets under way, by key: requests that come together (a page asking for its messages and its chart) share one read. */
  readonly #underWay = new Map<string, Promise<T>>();

  constructor(store: Store, size: number, { followingHead = false } = {}) {
    this.#store = store;
    this.#size = size;
    this.#followingHead = followingHead;
  }

  /** get returns the value kept under `key` for session `id`, or what `read` gives when there is none or the session changed. */
  get(id: string, key: string, read: () => Promise<T>): Promise<T> {
    const underWay = this.#underWay.get(key);
    if (underWay) return underWay;
    const value = this.#stampedGet(id, key, read);
    this.#underWay.set(key, value);
    const done = () => {
      if (this.#underWay.get(key) === value) this.#underWay.delete(key);
    };
    value.then(done, done);
    return value;
  }

  async #stampedGet(id: string, key: string, read: () => Promise<T>): Promise<T> {
    const stamp = await this.#stamp(id);
    const cached = this.#entries.get(key);
    this.#entries.delete(key);
    if (cached && cached.stamp === stamp) {
      this.#entries.set(key, cached); // most recently used last
      return cached.value;
    }
    const value = read();
    this.#entries.set(key, { stamp, value });
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    });
    while (this.#entries.size > this.#size) this.#entries.delete(this.#entries.keys().next().value!);
    return value;
  }

  /** #stamp is what changes when session `id` does; the last record of its branch costs a session opened and one message read (a few ms). */
  async #stamp(id: string): Promise<string> {
    const info = this.#store.sessionInfo(id);
    const last = this.#followingHead ? (await withSession(this.#store, id, (s) => s.lastEnvelope()))?.uuid : undefined;
    return JSON.stringify([info.updatedAt, info.messageCount, info.status, info.tokens, last ?? null]);
  }
}
