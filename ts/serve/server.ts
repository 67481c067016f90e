import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '../store';
import type { PriceOptions } from '../management-types';
import { hostAllowed, newToken, tokenAllowed } from './auth';
import { ApiError, sendError, sendJSON } from './respond';
import { apiRoutes, routeAPI } from './routes';
import { sendViewerFile, VIEWER_DIR } from './static-files';
import { sendEvents } from './events';
import { sendExportPage } from './export-page';

/** ServeOptions are startServer()'s options. */
export interface ServeOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Prices for the cost figures, over the built-in list prices. */
  prices?: PriceOptions['prices'];
  /** The built viewer's folder; dist/viewer by default. */
  viewerDir?: string;
}

/** A running viewer server. */
export interface Viewer {
  port: number;
  token: string;
  /** The URL to open: the page, with the token it hands to the API. */
  url: string;
  /**
   * close stops accepting requests and resolves once the server is closed and the requests
   * under way have been answered, so that no session is still open when the store closes.
   */
  close(): Promise<void>;
}

/**
 * startServer serves the viewer of `store` on 127.0.0.1 only: the page and its assets to
 * anyone on this machine, the JSON API only to requests that carry the token and name the
 * server as 127.0.0.1 or localhost. It sends no CORS headers, so no page of another origin
 * can read an answer, and it answers only GET: a preflight is refused.
 */
export async function startServer(store: Store, options: ServeOptions = {}): Promise<Viewer> {
  const token = newToken();
  const routes = apiRoutes(store, { prices: options.prices });
  const viewerDir = options.viewerDir ?? VIEWER_DIR;
  let port = 0;
  // The requests under way: closing the store while one holds a session open would end that
  // session as at exit, which marks a hosted agent's (keyed) session interrupted even while
  // its agent is writing it in another process.
  const underWay = new Set<Promise<void>>();
  // Event streams stay open until their client goes; closing the server ends them.
  const closing = new AbortController();
  const server = http.createServer((req, res) => {
    const answered = handle(req, res).catch((err) => {
      // An answer already under way (its client gone) can only be cut off.
      if (res.headersSent) res.destroy();
      else sendError(res, err);
    });
    underWay.add(answered);
    answered.finally(() => underWay.delete(answered));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!hostAllowed(req, port)) throw new ApiError(403, 'FORBIDDEN', 'the Host header must be 127.0.0.1 or localhost with this port');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      throw new ApiError(405, 'METHOD_NOT_ALLOWED', `the viewer only reads: ${req.method} is not allowed`);
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname === '/' || url.pathname.startsWith('/assets/')) return sendViewerFile(res, url.pathname, viewerDir);
    if (!url.pathname.startsWith('/api/')) throw new ApiError(404, 'NOT_FOUND', `no page ${url.pathname}`);
    if (!tokenAllowed(req, token)) throw new ApiError(403, 'FORBIDDEN', 'send the token of the printed URL as Authorization: Bearer <token>');
    if (url.pathname === '/api/events') {
      const id = url.searchParams.get('session');
      return sendEvents(req, res, store, id ? store.sessionInfo(id).id : undefined, closing.signal);
    }
    const exported = /^\/api\/sessions\/([^/]+)\/export\.html$/.exec(url.pathname);
    if (exported) {
      return sendExportPage(res, store, store.sessionInfo(decodeURIComponent(exported[1])).id, url.searchParams.get('redact') === '1');
    }
    sendJSON(res, 200, await routeAPI(routes, url));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      closing.abort();
      server.closeIdleConnections();
      await Promise.all(underWay);
      server.closeAllConnections();
      await closed;
    },
  };
}
