// The viewer's client of the `sessionkeep serve` JSON API. The token comes once in the
// address (?token=…), is kept in sessionStorage for this tab only and removed from the
// address bar, so that it is not left in the history or shown on screen.

const TOKEN_KEY = 'sessionkeep-token';

/** takeTokenFromAddress moves ?token= from the address into sessionStorage and returns the token to use. */
export function takeTokenFromAddress(): string | null {
  const params = new URLSearchParams(location.search);
  const fromAddress = params.get('token');
  if (fromAddress) {
    sessionStorage.setItem(TOKEN_KEY, fromAddress);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/** ApiError is an error answer of the server: its stable code, message and HTTP status. */
export class ApiError extends Error {
  constructor(readonly code: string, message: string, readonly status: number) {
    super(message);
  }
}

/** Query values; empty and undefined ones are left out of the address. */
export type Query = Record<string, string | number | undefined | null>;

/** queryString is `?<query>` without the empty values, or '' when none is left; the hash routes use it too. */
export function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? '?' + qs : '';
}

/** apiUrl builds /api/<path>?<query> without the empty values. */
export function apiUrl(path: string, query: Query = {}): string {
  return '/api/' + path + queryString(query);
}

/** authHeaders are the headers that carry the token, for every request to the API. */
export function authHeaders(): Record<string, string> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Authorization: 'Bearer ' + token } : {};
}

/** getJSON fetches an API path with the token; any answer but 2xx JSON throws ApiError. */
export async function getJSON<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> {
  const response = await fetch(apiUrl(path, query), { headers: authHeaders(), signal });
  let body: any = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: reported below with the HTTP status.
  }
  if (!response.ok) {
    const error = body?.error;
    throw new ApiError(error?.code ?? 'HTTP_' + response.status, error?.message ?? response.statusText, response.status);
  }
  return body as T;
}
