// useMessages loads a session's conversation a page at a time (the branch ending at `leaf`,
// the head's by default), so that a 20,000-message session shows its first page at once.
import { useEffect, useRef, useState } from 'preact/hooks';
import { getJSON } from './api';
import type { Envelope, MessagesPage } from './api-types';

const MESSAGES_PAGE = 200;

export interface LoadedMessages {
  envelopes: Envelope[];
  total: number | null;
  loading: boolean;
  error: Error | null;
  loadMore: () => void;
}

/** MAX_RELOAD is the most records a live reload asks for at once (the API's page limit). */
const MAX_RELOAD = 1000;

/**
 * useMessages loads the pages of the conversation; when `version` (useLive's count) grows it
 * loads again as many records as are shown (and a page more), so that what another process
 * wrote appears in place.
 */
export function useMessages(sessionId: string, leaf: string | null, version = 0): LoadedMessages {
  const [envelopes, setEnvelopes] = useState<Envelope[]>([]);
  const shown = useRef(0);
  shown.current = envelopes.length;
  const [total, setTotal] = useState<number | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | null>(null);
  // The page asked for, of which branch: another branch starts again from its first page.
  const key = sessionId + '\n' + (leaf ?? '');
  const [wanted, setWanted] = useState({ key, offset: 0 });
  const offset = wanted.key === key ? wanted.offset : 0;

  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    setError(null);
    getJSON<MessagesPage>(
      `sessions/${encodeURIComponent(sessionId)}/messages`,
      { offset, limit: offset === 0 ? Math.min(MAX_RELOAD, Math.max(MESSAGES_PAGE, shown.current + MESSAGES_PAGE)) : MESSAGES_PAGE, leaf },
      abort.signal,
    ).then(
      (page) => {
        setEnvelopes((loaded) => (offset === 0 ? page.envelopes : loaded.concat(page.envelopes)));
        setTotal(page.total);
        setLoading(false);
      },
      (e) => {
        if (abort.signal.aborted) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => abort.abort();
  }, [key, offset, offset === 0 ? version : 0]);

  return {
    envelopes,
    total,
    loading,
    error,
    loadMore: () => setWanted({ key, offset: envelopes.length }),
  };
}
