import { SessionError } from './errors';
import { native, Handle } from './native';

/**
 * writeErrorPollMs is how often a store opened with onError asks whether its writes fail.
 * Asking costs one native call that takes a mutex; a full disk is shown a tenth of a
 * second after the commit that found it.
 */
const writeErrorPollMs = 100;

/**
 * watchWriteErrors calls onError on the JS thread when the store's queued writes start
 * failing to commit (DISK_FULL, READ_ONLY, STORE_GONE, or SQLITE_BUSY past the bound), once
 * per run of failures: after a commit succeeds again, the next failure is reported again.
 * It returns the function that stops watching. The timer never keeps the process alive.
 */
export function watchWriteErrors(h: Handle, onError: (error: SessionError) => void): () => void {
  const timer = setInterval(() => {
    const failed = native.storeTakeWriteError(h);
    if (failed) onError(new SessionError(failed[1], failed[0]));
  }, writeErrorPollMs);
  timer.unref();
  return () => clearInterval(timer);
}
