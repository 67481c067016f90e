// ExportButton downloads the session as one self-contained HTML page (the server's
// export.html, fetched with the token like every API call), secrets redacted when asked.
import { useState } from 'preact/hooks';
import { apiUrl, authHeaders } from '../api';

export function ExportButton({ sessionId }: { sessionId: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const [redact, setRedact] = useState(true);
  const download = async () => {
    setState('busy');
    try {
      const response = await fetch(apiUrl(`sessions/${encodeURIComponent(sessionId)}/export.html`, { redact: redact ? 1 : undefined }), {
        headers: authHeaders(),
      });
      if (!response.ok) throw new Error('HTTP ' + response.status);
      const url = URL.createObjectURL(await response.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = `session-${sessionId}.html`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <span class="export">
      <button data-testid="export-html" disabled={state === 'busy'} onClick={download}>Export HTML</button>
      <label class="check"><input type="checkbox" checked={redact} onChange={(e) => setRedact((e.currentTarget as HTMLInputElement).checked)} /> redact secrets</label>
      {state === 'failed' && <span class="badge status-error">export failed</span>}
    </span>
  );
}
