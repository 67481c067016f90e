/** What shutdown needs of a store: closing it flushes, records access, marks what was cut off. */
interface Closable {
  close(): void;
  flush(): Promise<void>;
}

/** Stores still open, closed (and so flushed) when the process or worker exits. */
const open = new Set<Closable>();
let installed = false;
let signalsEnabled = true;

/** The signals that end a process by default and that a terminal or supervisor sends. */
const SIGNALS: NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** trackStore closes `store` at exit, and on SIGINT, SIGTERM and SIGHUP, until it is untracked. */
export function trackStore(store: Closable): void {
  open.add(store);
  install();
}

/** untrackStore stops tracking a store closed by the app. */
export function untrackStore(store: Closable): void {
  open.delete(store);
}

/**
 * handleSignals turns the signal handling on (the default) or off. On, a SIGINT, SIGTERM or
 * SIGHUP that would end the process closes every open store first — queued writes committed
 * and synced, each open session's last-accessed time recorded, a message still streaming
 * kept and marked interrupted — and then ends the process with the same signal, as Node would
 * have. When the app listens for the signal itself, the app decides: the stores are only
 * flushed, and closed at exit as always.
 */
export function handleSignals(enabled = true): void {
  if (enabled === signalsEnabled) return;
  signalsEnabled = enabled;
  if (!installed) return;
  if (enabled) listen();
  else unlisten();
}

function closeAll(): void {
  for (const store of open) {
    try {
      store.close();
    } catch {
      // Exiting: a store that cannot commit has kept its writes queued; nothing more to do.
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', closeAll);
  if (signalsEnabled) listen();
}

function listen(): void {
  // Signals reach only the main thread: in a worker these listeners are never called, and a
  // worker's stores close with the worker. Asking node:worker_threads which thread this is
  // would load it at every open, for 1.8 MB of resident memory.
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function unlisten(): void {
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listeners(signal).some((l) => l !== onSignal)) {
    for (const store of open) store.flush().catch(() => {});
    return;
  }
  closeAll();
  reraise(signal);
}

/**
 * reraise ends the process with `signal` as if sessionkeep had not been listening: with no
 * listener left, Node restores the default action, and the exit status says which signal
 * ended the process (130 for SIGINT in a shell).
 */
function reraise(signal: NodeJS.Signals): void {
  unlisten();
  process.kill(process.pid, signal);
}
