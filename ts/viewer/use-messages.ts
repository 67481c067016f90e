// useMessages loads a session's conversation a page at a time (the branch ending at `leaf`,
// the head's by default), so that a 20,000-message session shows its first page at once.
import { useEffect, useState } from 'preact/hooks';
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

export function useMessages(sessionId: string, leaf: string | null): LoadedMessages {
  const [envelopes, setEnvelopes] = useState<Envelope[]>([]);
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
      { offset, limit: MESSAGES_PAGE, leaf },
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
  }, [key, offset]);

  return {
    envelopes,
    total,
    loading,
    error,
    loadMore: () => setWanted({ key, offset: envelopes.length }),
  };
}
