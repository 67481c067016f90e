// useLive follows the server's event stream (GET /api/events, with the token like every API
// call: a fetch stream, since an EventSource cannot send the Authorization header) and
// returns a count that grows at each change, for the pages to load again by. A stream that
// breaks is opened again after a second.
import { useEffect, useState } from 'preact/hooks';
import { apiUrl, authHeaders, type Query } from './api';

const RECONNECT_MS = 1000;

export function useLive(query: Query): number {
  const [version, setVersion] = useState(0);
  const key = apiUrl('events', query);
  useEffect(() => {
    const abort = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const open = async () => {
      try {
        const response = await fetch(key, { headers: authHeaders(), signal: abort.signal });
        if (!response.ok || !response.body) throw new Error('HTTP ' + response.status);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffered = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffered += value;
          let end;
          while ((end = buffered.indexOf('\n\n')) >= 0) {
            const event = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            if (/^event: change$/m.test(event)) setVersion((v) => v + 1);
          }
        }
      } catch {
        // Aborted, or the server went: try again unless the page left.
      }
      if (!abort.signal.aborted) retry = setTimeout(open, RECONNECT_MS);
    };
    open();
    return () => {
      abort.abort();
      clearTimeout(retry);
    };
  }, [key]);
  return version;
}
