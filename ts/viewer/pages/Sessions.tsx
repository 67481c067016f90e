// SessionsPage is the listing: search, filters, sort and server-side paging, all kept in the
// page's hash query so that Back and reload return to the same view.
import type { SessionsPage as Page } from '../api-types';
import { Filters, type ListQuery } from '../components/Filters';
import { ErrorNote } from '../components/ErrorNote';
import { Pager } from '../components/Pager';
import { SessionRow } from '../components/SessionRow';
import { navigate, routeHash } from '../router';
import { useApi } from '../use-api';
import { useLive } from '../use-live';

const PAGE_SIZE = 50;

/** listQuery reads the filters from the hash query, with the defaults. */
function listQuery(params: URLSearchParams): ListQuery {
  const get = (key: string, fallback = '') => params.get(key) ?? fallback;
  return {
    q: get('q'),
    project: get('project'),
    status: get('status'),
    archived: get('archived'),
    from: get('from'),
    to: get('to'),
    sort: get('sort', 'updated'),
    order: get('order', 'desc'),
  };
}

export function SessionsPage({ params }: { params: URLSearchParams }) {
  const query = listQuery(params);
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const live = useLive({});
  const list = useApi<Page>('sessions', {
    ...query,
    // archived= is 1 or absent: the server's default leaves archived sessions out, which
    // would leave nothing to show for the status `archived`.
    archived: query.archived === '1' || query.status === 'archived' ? '1' : undefined,
    offset,
    limit: PAGE_SIZE,
  }, live);
  const go = (changes: Partial<ListQuery> & { offset?: number }, options?: { replace?: boolean }) => {
    const next = { ...query, offset: 0, ...changes };
    navigate(routeHash('sessions', { ...next, offset: next.offset || undefined }), options);
  };
  const page = list.data;
  return (
    <section class="sessions-page">
      <Filters query={query} onChange={go} />
      {list.error && <ErrorNote error={list.error} />}
      {page && (
        <>
          <p class="summary">
            <span data-testid="total">{page.total}</span> {page.total === 1 ? 'session' : 'sessions'}
            {query.q && <> with hits for “{query.q}”</>}
            {list.loading && <span class="loading"> · loading…</span>}
          </p>
          <ul class="session-list">
            {page.sessions.map((s) => <SessionRow key={s.id} session={s} />)}
          </ul>
          {page.total > 0 && (
            <Pager offset={page.offset} limit={page.limit || PAGE_SIZE} total={page.total} onOffset={(o) => go({ offset: o })} />
          )}
          {page.total === 0 && <p class="empty">No session matches.</p>}
        </>
      )}
      {!page && list.loading && <p class="loading">Loading…</p>}
    </section>
  );
}
