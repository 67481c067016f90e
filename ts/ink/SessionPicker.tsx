import { useEffect, useRef, useState } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import type { SessionInfo, Store } from '../index.js';
import { formatRelativeTime } from './format.js';

export interface SessionPickerProps {
  /** The sessions to choose from, newest first. Give these, or a `store` to list them from. */
  sessions?: SessionInfo[];
  /** A store to list the sessions from, with `store.listSessionsAsync({ projectPath, limit })`. */
  store?: Store;
  /** With `store`: only the sessions of this project. Default: every project. */
  projectPath?: string;
  /** With `store`: at most this many sessions. Default 50. */
  limit?: number;
  /** Enter: the highlighted session is to be resumed. */
  onResume: (session: SessionInfo) => void;
  /** n: a new session is wanted. Without it, n does nothing and is not offered. */
  onNew?: () => void;
  /** q or Esc. Default: exit the Ink app. */
  onQuit?: () => void;
  /** The time the relative times count from. Default: now. */
  now?: Date;
  /** How many sessions show at once; the list scrolls. Default 10. */
  visibleRows?: number;
  /** The line above the list. Default "Select a session to resume:". */
  title?: string;
  /** Whether the picker takes keys. Default true. */
  isActive?: boolean;
}

const TIME_WIDTH = 17;
const COUNT_WIDTH = 14;

/**
 * SessionPicker is seed 004's session selector: ↑/↓ (or k/j, PgUp/PgDn, Home/End) move,
 * Enter resumes, n starts a new session, q or Esc quits. Each row shows when the session
 * was last written (relative), its title and its message count.
 */
export function SessionPicker(props: SessionPickerProps) {
  const { store, projectPath, limit = 50, onResume, onNew, now, visibleRows = 10, isActive = true } = props;
  const { exit } = useApp();
  const listed = useListing(props.sessions, store, projectPath, limit);
  const { sessions } = listed;
  const last = Math.max(0, sessions.length - 1);
  // Keys can come faster than renders (a paste, a fast typist): the handler reads the
  // position from the ref, which every key updates at once, not from the last render.
  const picked = useRef(0);
  // The list is read through a ref too: Ink draws a frame before the effect that hands
  // useInput this render's handler has run, so a key seen right after the list appears
  // would otherwise meet the handler of the render before it (and an empty list).
  const shownSessions = useRef(sessions);
  shownSessions.current = sessions;
  const [, setShown] = useState(0);
  const selected = Math.min(picked.current, last);
  const rows = Math.max(1, visibleRows);
  const quit = props.onQuit ?? (() => exit());

  useInput((input, key) => {
    const list = shownSessions.current;
    const end = Math.max(0, list.length - 1);
    const at = Math.min(picked.current, end);
    const move = (to: number) => {
      picked.current = Math.max(0, Math.min(end, to));
      setShown(picked.current);
    };
    if (key.upArrow || input === 'k') move(at - 1);
    else if (key.downArrow || input === 'j') move(at + 1);
    else if (key.pageUp) move(at - rows);
    else if (key.pageDown) move(at + rows);
    else if (key.home) move(0);
    else if (key.end) move(end);
    else if (key.return && list[at]) onResume(list[at]);
    else if ((input === 'n' || input === 'N') && onNew) onNew();
    else if (input === 'q' || input === 'Q' || key.escape) quit();
  }, { isActive });

  const start = Math.max(0, Math.min(selected - Math.floor(rows / 2), sessions.length - rows));
  const shown = sessions.slice(start, start + rows);
  const clock = now ?? new Date();
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{props.title ?? 'Select a session to resume:'}</Text>
      <Box flexDirection="column" borderStyle="single" borderLeft={false} borderRight={false} borderDimColor>
        {listed.loading && <Text dimColor>Listing sessions…</Text>}
        {listed.error && <Text color="red">Could not list sessions: {listed.error.message}</Text>}
        {!listed.loading && !listed.error && sessions.length === 0 && <Text dimColor>No sessions yet{projectPath ? ' in this project' : ''}.</Text>}
        {start > 0 && <Text dimColor>  ↑ {start} more</Text>}
        {shown.map((s, i) => (
          <SessionRow key={s.id} session={s} selected={start + i === selected} now={clock} />
        ))}
        {start + shown.length < sessions.length && <Text dimColor>  ↓ {sessions.length - start - shown.length} more</Text>}
      </Box>
      <Text dimColor>
        {sessions.length > 0 ? '[Enter] Resume  ' : ''}
        {onNew ? '[n] New session  ' : ''}[q] Quit
      </Text>
    </Box>
  );
}

function SessionRow({ session, selected, now }: { session: SessionInfo; selected: boolean; now: Date }) {
  const color = selected ? 'cyan' : undefined;
  const count = `${session.messageCount} message${session.messageCount === 1 ? '' : 's'}`;
  return (
    <Box>
      <Text color={color}>{selected ? '▸ ' : '  '}</Text>
      <Box width={TIME_WIDTH} flexShrink={0}>
        <Text color={color}>{formatRelativeTime(session.updatedAt, now)}</Text>
      </Box>
      <Box flexGrow={1}>
        <Text color={color} bold={selected} wrap="truncate-end">
          {session.title ? `"${session.title}"` : '(untitled)'}
          {session.status !== 'active' && <Text color="yellow"> ({session.status})</Text>}
        </Text>
      </Box>
      <Box width={COUNT_WIDTH} flexShrink={0} justifyContent="flex-end">
        <Text color={color}>{count}</Text>
      </Box>
    </Box>
  );
}

interface Listing {
  sessions: SessionInfo[];
  loading?: boolean;
  error?: Error;
}

/**
 * useListing is the given sessions, or the store's, listed off the JS thread
 * (listSessionsAsync): a store of many sessions never stalls the first frame.
 */
function useListing(given: SessionInfo[] | undefined, store: Store | undefined, projectPath: string | undefined, limit: number): Listing {
  const [listed, setListed] = useState<Listing>({ sessions: [], loading: !given && !!store });
  useEffect(() => {
    if (given || !store) return;
    let current = true;
    setListed({ sessions: [], loading: true });
    store.listSessionsAsync({ projectPath, limit }).then(
      (sessions) => current && setListed({ sessions }),
      (err: unknown) => current && setListed({ sessions: [], error: err instanceof Error ? err : new Error(String(err)) }),
    );
    return () => {
      current = false;
    };
  }, [given, store, projectPath, limit]);
  return given ? { sessions: given } : listed;
}
