import type { Store } from '../store';
import type { PriceOptions } from '../management-types';
import { Query } from './query';
import { RecordCache } from './records';
import { listProjects, listSessions } from './sessions-api';
import { contextUsage, sessionDetails, sessionMessages } from './session-api';
import { snapshotFile } from './snapshot-file';
import { usage } from './usage-api';
import { ApiError } from './respond';

/** A route's handler: the path's named parts (a session id already resolved) and the query. */
type Handler = (params: string[], q: Query) => Promise<unknown>;

/**
 * apiRoutes are the JSON API's routes over one store, each a path pattern and its handler.
 * Every route only reads.
 */
export function apiRoutes(store: Store, prices: PriceOptions): [RegExp, Handler][] {
  const records = new RecordCache(store);
  const session = (idOrPrefix: string) => store.sessionInfo(idOrPrefix).id;
  return [
    [/^\/api\/sessions$/, (_, q) => listSessions(store, records, q)],
    [/^\/api\/projects$/, () => listProjects(store)],
    [/^\/api\/usage$/, (_, q) => usage(store, q, prices)],
    [/^\/api\/sessions\/([^/]+)$/, ([id]) => sessionDetails(store, records, session(id), prices)],
    [/^\/api\/sessions\/([^/]+)\/messages$/, ([id], q) => sessionMessages(records, session(id), q)],
    [/^\/api\/sessions\/([^/]+)\/context-usage$/, ([id]) => contextUsage(store, records, session(id))],
    [/^\/api\/sessions\/([^/]+)\/snapshots\/([^/]+)\/file$/, ([id, snap], q) => snapshotFile(store, session(id), snap, q)],
  ];
}

/** routeAPI runs the route of `url` (a path under /api/ with its query). */
export async function routeAPI(routes: [RegExp, Handler][], url: URL): Promise<unknown> {
  for (const [pattern, handler] of routes) {
    const m = pattern.exec(url.pathname);
    if (m) return handler(m.slice(1).map(decodePart), new Query(url.searchParams));
  }
  throw new ApiError(404, 'NOT_FOUND', `no API route ${url.pathname}`);
}

function decodePart(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new ApiError(400, 'INVALID_ARGUMENT', `${JSON.stringify(s)} is not a valid path part`);
  }
}
