import type { Store } from '../store';

/**
 * StampedCache keeps the last `size` values read from sessions, each with the stamp of its
 * session's listing when it was read: a value is read again once the session has changed
 * (a message written; a rewind too, which stamps the session's updatedAt like any write).
 * The head itself is not in the stamp: only an opened session tells it, and opening and
 * closing one writes its lastAccessedAt, a write per page for a reader. A failed read is
 * not kept.
 */
export class StampedCache<T> {
  readonly #store: Store;
  readonly #size: number;
  readonly #entries = new Map<string, { stamp: string; value: Promise<T> }>();

  constructor(store: Store, size: number) {
    this.#store = store;
    this.#size = size;
  }

  /** get returns the value kept under `key` for session `id`, or what `read` gives when there is none or the session changed. */
  get(id: string, key: string, read: () => Promise<T>): Promise<T> {
    const info = this.#store.sessionInfo(id);
    const stamp = JSON.stringify([info.updatedAt, info.messageCount, info.status, info.tokens]);
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
}
