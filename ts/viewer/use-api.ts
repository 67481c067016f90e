// useApi loads one API answer for a component and loads it again when its address changes;
// an answer that arrives after the address changed is dropped.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, apiUrl, getJSON, type Query } from './api';

export interface Loaded<T> {
  data: T | null;
  error: ApiError | Error | null;
  loading: boolean;
}

/**
 * useApi fetches path?query (nothing while path is null) and follows changes of either, and
 * fetches again, keeping what it shows meanwhile, when `version` (useLive's count) grows.
 */
export function useApi<T>(path: string | null, query: Query = {}, version = 0): Loaded<T> {
  const key = path === null ? null : apiUrl(path, query);
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null, loading: path !== null });
  useEffect(() => {
    if (path === null) return;
    const abort = new AbortController();
    setState((s) => ({ data: s.data, error: null, loading: true }));
    getJSON<T>(path, query, abort.signal).then(
      (data) => setState({ data, error: null, loading: false }),
      (error) => {
        if (!abort.signal.aborted) setState({ data: null, error, loading: false });
      },
    );
    return () => abort.abort();
  }, [key, version]);
  return state;
}
