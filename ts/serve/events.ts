import type http from 'node:http';
import type { Store } from '../store';

/** listingPollMs is how often the listing's stream looks at the newest session of the store. */
const listingPollMs = 250;

/** keepAliveMs is how often an idle stream sends a comment, so that proxies keep it open. */
const keepAliveMs = 15_000;

/**
 * sendEvents answers GET /api/events[?session=<id>] with server-sent events: `ready` at once,
 * then `change` whenever the session (by session.watch(), which any process's commit moves)
 * or, without a session, the listing changes. The listing is watched by its newest row
 * (what the store's listing index orders by updated_at), read every 250 ms: a session
 * created, written or renamed changes it. The stream ends when the client goes or `closing`
 * is aborted; the session it held open is closed then.
 */
export function sendEvents(req: http.IncomingMessage, res: http.ServerResponse, store: Store, sessionId: string | undefined, closing: AbortSignal): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  const send = (event: string) => res.write(`event: ${event}\ndata: {}\n\n`);
  const stopWatching = sessionId === undefined ? watchListing(store, () => send('change')) : watchSession(store, sessionId, () => send('change'));
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
  send('ready');
  return new Promise((resolve) => {
    const end = () => {
      clearInterval(keepAlive);
      stopWatching();
      res.end();
      resolve();
    };
    if (closing.aborted) return end();
    closing.addEventListener('abort', end, { once: true });
    req.once('close', () => {
      closing.removeEventListener('abort', end);
      end();
    });
  });
}

/** watchSession follows one session until the returned function closes it. */
function watchSession(store: Store, id: string, onChange: () => void): () => void {
  const session = store.openSession(id);
  const stop = session.watch(onChange);
  return () => {
    stop();
    session.close();
  };
}

/** watchListing calls onChange when the newest row of the listing changes. */
function watchListing(store: Store, onChange: () => void): () => void {
  let seen: string | undefined;
  let looking = false;
  const look = async () => {
    if (looking) return;
    looking = true;
    try {
      const [newest] = await store.listSessionsAsync({ includeArchived: true, limit: 1, fields: ['id', 'updatedAt', 'messageCount', 'title'] });
      const now = JSON.stringify(newest ?? null);
      if (seen !== undefined && now !== seen) onChange();
      seen = now;
    } catch {
      // The store closing: the stream ends with the server.
    } finally {
      looking = false;
    }
  };
  look();
  const timer = setInterval(look, listingPollMs);
  return () => clearInterval(timer);
}
