import { argTypeError } from './errors';
import { native, Handle } from './native';

/**
 * watchPollMs is how often a watch compares the session's commit count. The count is kept in
 * memory by the store's watcher (PostgreSQL's NOTIFY listener; SQLite's data_version
 * follower), so comparing it is one native call and no query: a change is seen this long, at
 * most, after the store learned of it.
 */
const watchPollMs = 20;

/**
 * watchSession calls onChange on the JS thread after commits to the session, by any process
 * on any host, and returns the function that stops watching. Several commits between two
 * looks are one call. The watch stops by itself once the session or its store is closed, so
 * it keeps the process alive only while both are open.
 */
export function watchSession(h: Handle, onChange: () => void): () => void {
  if (typeof onChange !== 'function') throw argTypeError('onChange', 'a function');
  let seen = native.sessionWatch(h);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    native.sessionUnwatch(h);
  };
  const timer = setInterval(() => {
    let now: string;
    try {
      now = native.sessionWatchVersion(h);
    } catch {
      stop(); // closed: nothing more to follow
      return;
    }
    if (now !== seen) {
      seen = now;
      onChange();
    }
  }, watchPollMs);
  return stop;
}
