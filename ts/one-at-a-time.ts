/**
 * oneAtATime runs work once the work queued before it under the same key has settled
 * (succeeded or failed), and gives work's own result. `queue` holds, per key, the last work
 * queued; a key is dropped once its last work has settled.
 */
export function oneAtATime<T>(queue: Map<string, Promise<void>>, key: string, work: () => Promise<T>): Promise<T> {
  const run = (queue.get(key) ?? Promise.resolve()).then(work);
  const settled = run.then(() => undefined, () => undefined);
  queue.set(key, settled);
  void settled.then(() => {
    if (queue.get(key) === settled) queue.delete(key);
  });
  return run;
}
