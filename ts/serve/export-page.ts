import type http from 'node:http';
import type { Store } from '../store';
import { compactionOf, sessionHtml } from '../export-html';
import { DEFAULT_WINDOW } from '../default-window';
import { withSession } from './open-session';

/**
 * sendExportPage answers GET /api/sessions/:id/export.html[?redact=1]: the session as one
 * self-contained page (as `sessionkeep export --format html` writes it), as a download.
 */
export async function sendExportPage(res: http.ServerResponse, store: Store, id: string, redact: boolean): Promise<void> {
  const html = await withSession(store, id, async (s) => {
    const [info, envelopes] = await Promise.all([s.detailsAsync(), s.envelopesAsync()]);
    const compaction = await compactionOf(s, envelopes, info.contextWindow || DEFAULT_WINDOW);
    return sessionHtml(info, envelopes, { redact, compaction });
  });
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Disposition': `attachment; filename="session-${id}.html"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(html);
}
