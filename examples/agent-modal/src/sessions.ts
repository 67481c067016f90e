import { SessionError, type SessionInfo, type Store } from 'sessionkeep';
import { formatRelativeTime, formatTokens } from 'sessionkeep/ink';

/*
 * The session-management calls --continue and --resume need: store.latestSession(),
 * store.findSession() and session.resumeSummary() (issue 4, part 2). They are being added
 * to sessionkeep beside this example; until a build has them, this module answers from
 * store.listSessions() with the same contract. It is the only place that knows.
 */

interface SessionManagement {
  latestSession?(projectPath: string): { id: string; close?(): void } | null;
  findSession?(idOrPrefix: string): { id: string; close?(): void };
}

/** latestSessionId is the id of the project's most recent session (for --continue), or null. */
export function latestSessionId(store: Store, projectPath: string): string | null {
  const managed = store as Store & SessionManagement;
  if (managed.latestSession) return idOf(managed.latestSession(projectPath));
  return store.listSessions({ projectPath, limit: 1 })[0]?.id ?? null;
}

/**
 * findSessionId resolves an id or a unique id prefix (for --resume <id>). It throws
 * SessionError SESSION_NOT_FOUND, or AMBIGUOUS_ID when the prefix fits several sessions.
 */
export function findSessionId(store: Store, idOrPrefix: string): string {
  const managed = store as Store & SessionManagement;
  if (managed.findSession) return idOf(managed.findSession(idOrPrefix))!;
  const matches = store.listSessions().filter((s) => s.id.startsWith(idOrPrefix));
  const exact = matches.find((s) => s.id === idOrPrefix);
  if (exact) return exact.id;
  if (matches.length === 1) return matches[0].id;
  if (matches.length === 0) throw new SessionError(`no session has an id starting with "${idOrPrefix}"`, 'SESSION_NOT_FOUND');
  throw new SessionError(`"${idOrPrefix}" starts ${matches.length} session ids; give more of the id`, 'AMBIGUOUS_ID');
}

/** resumeSummary is the line shown when a session is resumed (seed 003's resume summary). */
export function resumeSummary(store: Store, id: string): string {
  const session = store.openSession(id) as ReturnType<Store['openSession']> & { resumeSummary?(): { text: string } };
  try {
    if (session.resumeSummary) return session.resumeSummary().text;
    const info = store.listSessions().find((s) => s.id === id) as SessionInfo;
    const tokens = session.tokenTracker();
    const interactions = session.turns().length;
    return [
      `Resuming ${info.title ? `"${info.title}"` : `session ${id.slice(0, 8)}`}`,
      `last active ${formatRelativeTime(info.updatedAt)}`,
      `${interactions} interaction${interactions === 1 ? '' : 's'}`,
      `${formatTokens(tokens.inputTokens + tokens.outputTokens + tokens.cacheReadInputTokens + tokens.cacheCreationInputTokens)} tokens`,
    ].join(' · ');
  } finally {
    session.close();
  }
}

/** idOf takes the id of what a lookup returned; an opened session is closed, the app opens its own. */
function idOf(found: { id: string; close?(): void } | null): string | null {
  if (!found) return null;
  found.close?.();
  return found.id;
}
