import { raw, setBeforeCall, Handle } from './native';

/**
 * Pending coalesces stream deltas on the JS side. Crossing into
 * native code costs about a microsecond a call, far more than a delta is worth, so a run
 * of deltas of one kind (text, thinking, or tool input JSON) crosses once: the first delta
 * of a run crosses at once (so it is checked, and opens its block), and the ones after it
 * are joined here until something else happens to the session. Deltas of one kind join
 * into the same block, so the recording is the same.
 *
 * There is one run at a time, of one session (a delta of another session or kind ends it).
 * Only deltas that come in a burst are joined: a delta that comes maxHoldMs or more after
 * the one before crosses at once, with whatever was joined, so a slow stream never leaves
 * anything in JavaScript while the JS thread is busy with other work. What a burst joins
 * crosses, at the latest:
 *   - before any other call into native code, on any session or store (a chunk of another
 *     kind, a read, a flush, a close): every call through `native` flushes it first;
 *   - at the end of the current event-loop turn (setImmediate), so an agent streaming from
 *     the network hands each network read's deltas over before it waits for the next;
 *   - with the first delta maxHoldMs after the burst began, in a long synchronous run;
 *   - when maxChars have been joined.
 * So what a crash can lose is at most the last maxHoldMs of a burst.
 * Native code then checkpoints a block still streaming every 20 ms, as before.
 */
export class Pending {
  /** The kind of the run going on: the native function its deltas go to, or none. */
  kind: ((h: Handle, text: string) => void) | null = null;
  /** The handle the run crossed through, and will again. */
  h: Handle | null = null;
  text = '';
  /** When the joined text began, and when the last delta came. */
  since = 0;
  last = 0;
  scheduled = false;

  /**
   * delta records one delta of kind through h. It returns false when it did not take the
   * delta (another kind, or a delta that is not a string): the caller crosses with it.
   */
  delta(h: Handle, kind: (h: Handle, text: string) => void, text: unknown): boolean {
    if (this.kind !== kind || this.h !== h || typeof text !== 'string') return false;
    const now = performance.now();
    const quiet = now - this.last >= maxHoldMs;
    this.last = now;
    if (this.text === '') {
      this.since = now;
      this.schedule();
    }
    this.text += text;
    if (quiet || now - this.since >= maxHoldMs || this.text.length >= maxChars) this.flush();
    return true;
  }

  /** started notes that a delta of kind crossed through h, starting a run. */
  started(h: Handle, kind: (h: Handle, text: string) => void): void {
    this.kind = kind;
    this.h = h;
    this.last = performance.now();
  }

  /** flush hands what was joined to native code and ends the run. */
  flush(): void {
    if (this.kind === null) return;
    const kind = this.kind;
    const text = this.text;
    this.kind = null;
    this.text = '';
    if (kind !== null && text !== '') kind(this.h!, text);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.text !== '') this.flushQuietly();
    });
  }

  /** flushQuietly flushes from a timer, where nobody can be told of an error: the session
   *  was closed meanwhile, and the next call on it reports that. */
  private flushQuietly(): void {
    const kind = this.kind;
    const text = this.text;
    this.text = '';
    try {
      if (kind !== null) kind(this.h!, text);
    } catch {
      this.kind = null;
    }
  }
}

/** The most characters a run joins before it crosses. */
const maxChars = 64 * 1024;
/** The longest a joined delta waits in a synchronous run. */
const maxHoldMs = 5;

/** The delta kinds, as the native functions their runs cross to. */
export const TEXT = (h: Handle, text: string): void => raw.ingestText(h, text);
export const THINKING = (h: Handle, text: string): void => raw.ingestThinking(h, text);
export const TOOL_JSON = (h: Handle, text: string): void => raw.ingestToolUseDelta(h, text);

/** pending is the run of deltas going on, handed over before every other native call. */
export const pending = new Pending();
setBeforeCall(() => pending.flush());
