import type { Store } from '../store';
import type { SessionInfo } from '../types';
import type { SearchHit } from '../management-types';
import { totalTokens } from '../token-totals';
import type { Query } from './query';
import type { RecordCache } from './records';

/** The characters search snippets mark matches with; the viewer turns them into <mark>. */
const MARK: [string, string] = ['\u0001', '\u0002'];

/** How many messages a search reads before grouping them by session. */
const SEARCH_MESSAGES = 1000;
/** How many hits one session's row shows. */
const HITS_PER_SESSION = 5;

const SORTS = ['updated', 'created', 'messages', 'tokens', 'title'] as const;
type Sort = (typeof SORTS)[number];

/** A search hit as a session row shows it. */
export interface RowHit {
  /** The record's position on the session's current branch (its offset in /messages); -1 off it. */
  seq: number;
  uuid: string;
  role: SearchHit['role'];
  snippet: string;
}

/** A listing row: the session's listing, and with `q` its hits. */
export type SessionRow = SessionInfo & { hits?: RowHit[] };

/**
 * listSessions answers GET /api/sessions: the sessions that pass the filters, sorted, one
 * page of them. Without `q` every listing is read at once (a listing of 10,000 sessions
 * parses in tens of milliseconds) so that filters and sorts the store has no index for
 * still give an exact total; with `q`, the sessions with full-text hits, best hit first
 * unless a sort is asked for.
 */
export async function listSessions(store: Store, records: RecordCache, q: Query) {
  const offset = q.int('offset', 0);
  const limit = q.int('limit', 50, 500);
  const text = q.string('q');
  const project = q.string('project');
  const archived = q.oneOf('archived', ['0', '1'], '0') === '1';
  const status = q.optionalOneOf('status', ['active', 'interrupted', 'archived', 'corrupted']);
  const from = q.day('from');
  const to = q.day('to', true);
  const sort = q.oneOf<Sort>('sort', SORTS, 'updated');
  const order = q.oneOf('order', ['desc', 'asc'], sort === 'title' ? 'asc' : 'desc');

  const all = await store.listSessionsAsync({ projectPath: project, includeArchived: true });
  const keep = (s: SessionInfo) =>
    (archived ? s.archivedAt !== undefined : s.archivedAt === undefined) &&
    (status === undefined || s.status === status) &&
    (from === undefined || new Date(s.updatedAt) >= from) &&
    (to === undefined || new Date(s.updatedAt) < to);

  let rows: SessionRow[];
  if (text === undefined) {
    rows = all.filter(keep).sort(compare(sort, order));
  } else {
    rows = withHits(all, await store.searchAsync(text, { projectPath: project, limit: SEARCH_MESSAGES, highlight: MARK })).filter(keep);
    if (q.string('sort') !== undefined) rows.sort(compare(sort, order));
  }
  const page = rows.slice(offset, offset + limit);
  if (text !== undefined) await placeHits(records, page);
  return { total: rows.length, offset, limit, sessions: page };
}

/** withHits is the sessions of `hits`, in the order of each one's best hit, each with its hits. */
function withHits(all: SessionInfo[], hits: SearchHit[]): SessionRow[] {
  const byId = new Map(all.map((s) => [s.id, s]));
  const rows = new Map<string, SessionRow & { hits: RowHit[] }>();
  for (const h of hits) {
    const info = byId.get(h.sessionId);
    if (!info) continue;
    let row = rows.get(h.sessionId);
    if (!row) rows.set(h.sessionId, (row = { ...info, hits: [] }));
    if (row.hits.length < HITS_PER_SESSION) row.hits.push({ seq: -1, uuid: h.messageUuid, role: h.role, snippet: h.snippet });
  }
  return [...rows.values()];
}

/** placeHits sets each hit's position on its session's current branch, for the page shown only. */
async function placeHits(records: RecordCache, rows: SessionRow[]): Promise<void> {
  for (const row of rows) {
    const positions = await records.positions(row.id);
    for (const hit of row.hits ?? []) hit.seq = positions.get(hit.uuid) ?? -1;
  }
}

function compare(sort: Sort, order: 'asc' | 'desc'): (a: SessionInfo, b: SessionInfo) => number {
  const key = sortKey[sort];
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    return sign * (typeof x === 'string' ? x.localeCompare(y as string) : x - (y as number));
  };
}


const sortKey: Record<Sort, (s: SessionInfo) => string | number> = {
  updated: (s) => s.updatedAt,
  created: (s) => s.createdAt,
  messages: (s) => s.messageCount,
  tokens: (s) => totalTokens(s.tokens),
  title: (s) => s.title.toLowerCase(),
};

/** listProjects answers GET /api/projects: every project path with its number of sessions, archived ones counted. */
export async function listProjects(store: Store) {
  const counts = new Map<string, number>();
  for (const s of await store.listSessionsAsync({ includeArchived: true, fields: ['projectPath'] })) {
    counts.set(s.projectPath, (counts.get(s.projectPath) ?? 0) + 1);
  }
  const projects = [...counts].map(([path, sessions]) => ({ path, sessions })).sort((a, b) => a.path.localeCompare(b.path));
  return { projects };
}
