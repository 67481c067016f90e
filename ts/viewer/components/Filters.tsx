// Filters is the sessions page's search box, filters and sort order. Each change replaces the
// page's query (and goes back to the first page); the search box waits for a pause in typing.
import { useEffect, useState } from 'preact/hooks';
import type { ProjectsAnswer } from '../api-types';
import { useApi } from '../use-api';

export interface ListQuery {
  q: string;
  project: string;
  status: string;
  archived: string;
  from: string;
  to: string;
  sort: string;
  order: string;
}

interface FiltersProps {
  query: ListQuery;
  onChange: (changes: Partial<ListQuery>, options?: { replace?: boolean }) => void;
}

const SORTS: [string, string][] = [
  ['updated', 'Last updated'],
  ['created', 'Created'],
  ['messages', 'Messages'],
  ['tokens', 'Tokens'],
  ['title', 'Title'],
];

export function Filters({ query, onChange }: FiltersProps) {
  const projects = useApi<ProjectsAnswer>('projects');
  const [text, setText] = useState(query.q);
  useEffect(() => setText(query.q), [query.q]);
  useEffect(() => {
    if (text === query.q) return;
    const timer = setTimeout(() => onChange({ q: text }, { replace: true }), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const value = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLSelectElement).value;
  return (
    <form class="filters" onSubmit={(e) => { e.preventDefault(); onChange({ q: text }); }}>
      <input
        data-testid="search-input"
        type="search"
        placeholder="Search every message…"
        value={text}
        onInput={(e) => setText(value(e))}
      />
      <select data-testid="filter-project" value={query.project} onChange={(e) => onChange({ project: value(e) })}>
        <option value="">All projects</option>
        {projects.data?.projects.map((p) => (
          <option key={p.path} value={p.path}>{`${p.path} (${p.sessions})`}</option>
        ))}
      </select>
      <select data-testid="filter-status" value={query.status} onChange={(e) => onChange({ status: value(e) })}>
        <option value="">Any status</option>
        <option value="active">Active</option>
        <option value="interrupted">Interrupted</option>
        <option value="corrupted">Corrupted</option>
        <option value="archived">Archived</option>
      </select>
      <label class="check">
        <input
          data-testid="filter-archived"
          type="checkbox"
          checked={query.archived === '1'}
          onChange={(e) => onChange({ archived: (e.currentTarget as HTMLInputElement).checked ? '1' : '' })}
        />
        with archived
      </label>
      <label>
        from <input data-testid="filter-from" type="date" value={query.from} onChange={(e) => onChange({ from: value(e) })} />
      </label>
      <label>
        to <input data-testid="filter-to" type="date" value={query.to} onChange={(e) => onChange({ to: value(e) })} />
      </label>
      <select data-testid="sort" value={query.sort} onChange={(e) => onChange({ sort: value(e) })}>
        {SORTS.map(([key, label]) => <option key={key} value={key}>{label}</option>)}
      </select>
      <select data-testid="sort-order" value={query.order} onChange={(e) => onChange({ order: value(e) })}>
        <option value="desc">↓ descending</option>
        <option value="asc">↑ ascending</option>
      </select>
    </form>
  );
}
