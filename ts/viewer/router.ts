// Hash routes: #/sessions (the default), #/session/<id>, #/usage, each with an optional
// ?query that holds the page's filters, so that Back returns to the same listing.
import { useEffect, useState } from 'preact/hooks';
import { queryString } from './api';

export interface Route {
  page: 'sessions' | 'session' | 'usage';
  /** The session id of #/session/<id>. */
  id?: string;
  params: URLSearchParams;
}

/** parseHash reads a location hash into a Route; anything unknown is the sessions page. */
function parseHash(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#/, '').split('?', 2);
  const parts = path.split('/').filter(Boolean);
  const params = new URLSearchParams(query);
  if (parts[0] === 'session' && parts[1]) return { page: 'session', id: decodeURIComponent(parts[1]), params };
  if (parts[0] === 'usage') return { page: 'usage', params };
  return { page: 'sessions', params };
}

/** routeHash writes a page and its query as a hash, leaving out empty values. */
export function routeHash(path: string, query: Record<string, string | number | undefined> = {}): string {
  return '#/' + path + queryString(query);
}

/** navigate goes to a hash route: a new history entry, or in place of this one with replace (typing a search). */
export function navigate(hash: string, options: { replace?: boolean } = {}): void {
  if (location.hash === hash) return;
  if (options.replace) location.replace(hash);
  else location.hash = hash;
}

/** useRoute is the current route, following hash changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
