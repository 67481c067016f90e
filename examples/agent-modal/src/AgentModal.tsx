import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Static, Text, useApp, useInput, useStdout } from 'ink';
import type { Envelope, Store } from 'sessionkeep';
import { ContextMeter, usePersistentSession, type PersistentSession } from 'sessionkeep/ink';
import { runTurn } from './agent.js';
import type { Model } from './model.js';
import { PromptInput } from './PromptInput.js';
import { itemsOf, pendingCalls, toolNames, type Item } from './transcript.js';
import { TranscriptItem } from './TranscriptItem.js';

export interface AgentModalProps {
  store: Store;
  /** The session to resume; null starts a new one (created with the first prompt). */
  sessionId: string | null;
  model: Model;
  /** The project folder: the session's project path, and where the tools run. */
  root: string;
  /** The first line on screen: the model, and what was resumed. */
  banner: string[];
  /** Told the session's id once there is one, so the caller can say how to resume it. */
  onSession?: (id: string) => void;
}

/** At most this many earlier items are printed when a session is resumed. */
const RESUME_ITEMS = 400;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * AgentModal is the conversation screen, after seed 000's AgentModal: the transcript with
 * every tool call and result as it arrives, the context meter, and the prompt. The session
 * is the only state: the transcript is drawn from what the store holds.
 */
export function AgentModal({ store, sessionId, model, root, banner, onSession }: AgentModalProps) {
  const { exit } = useApp();
  const agent = usePersistentSession({
    store,
    sessionId,
    create: { projectPath: root, provider: model.provider, model: model.model, contextWindow: model.contextWindow },
  });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const abort = useRef(new AbortController());
  useEffect(() => () => abort.current.abort(new Error('the agent was closed')), []);
  useEffect(() => {
    if (agent.sessionId) onSession?.(agent.sessionId);
  }, [agent.sessionId, onSession]);

  // While a turn runs the prompt takes no keys; this keeps the terminal in raw mode anyway,
  // so Ctrl-C reaches Ink, which unmounts the app (closing the session) instead of the
  // terminal killing Node.
  useInput(() => {}, { isActive: busy });

  const submit = async (line: string) => {
    if (line === '/exit' || line === '/quit') return exit();
    setFailure(null);
    setBusy(true);
    try {
      // Every message carries where it was written, as Claude Code's records do.
      const context = { cwd: root, platform: process.platform };
      agent.appendUserMessage(line, { context });
      await agent.run((session) => {
        session.setContext(context);
        return runTurn(session, model, root, abort.current.signal);
      });
    } catch (err) {
      if (!abort.current.signal.aborted) setFailure(err instanceof Error ? err.message : String(err));
    } finally {
      if (!abort.current.signal.aborted) setBusy(false);
    }
  };

  // Finished messages go to <Static>: printed once, above the live part, and never redrawn.
  const { done, live } = useMemo(() => split(agent.envelopes), [agent.envelopes]);
  const staticItems = useStaticItems(banner, done, agent.status === 'loading');
  const running = busy ? pendingCalls(agent.envelopes) : [];
  return (
    <Box flexDirection="column">
      <Static items={staticItems}>
        {(item) => (item.kind === 'banner'
          ? <Box key={item.key} flexDirection="column">{item.lines.map((l, i) => <Text key={i} dimColor={i > 0}>{l}</Text>)}</Box>
          : <TranscriptItem key={item.key} item={item} />)}
      </Static>
      {live.map((item) => <TranscriptItem key={item.key} item={item} />)}
      {running.map((call) => <Spinning key={call.id} text={`running ${call.name}…`} />)}
      {agent.error && <Text color="red">Could not open the session: {agent.error.message}</Text>}
      {failure && <Text color="red">The turn failed: {failure}</Text>}
      <StatusLine agent={agent} model={model} />
      <PromptInput
        active={!busy && agent.status !== 'error' && agent.status !== 'loading'}
        busyText={agent.status === 'loading' ? 'Loading the session…' : 'Working… (Ctrl-C quits; the session keeps what has arrived)'}
        onSubmit={(line) => void submit(line)}
      />
    </Box>
  );
}

type StaticItem = Item | { key: string; kind: 'banner'; lines: string[] };

/**
 * useStaticItems grows the list <Static> prints: the banner, then the items of finished
 * messages, once the session is loaded (a resumed session's history appears at once, the
 * latest RESUME_ITEMS of it).
 */
function useStaticItems(banner: string[], done: Item[], loading: boolean): StaticItem[] {
  const skipped = useRef<number | null>(null);
  if (skipped.current === null && !loading) skipped.current = Math.max(0, done.length - RESUME_ITEMS);
  return useMemo(() => {
    const head: StaticItem = { key: 'banner', kind: 'banner', lines: banner };
    if (skipped.current === null) return [head];
    const note: StaticItem[] = skipped.current > 0 ? [{ key: 'skipped', kind: 'note', tone: 'dim', text: `${skipped.current} earlier items not shown` }] : [];
    return [head, ...note, ...done.slice(skipped.current)];
  }, [banner, done, loading]);
}

/** split puts the items of finished messages apart from those of the message still streaming. */
function split(envelopes: Envelope[]): { done: Item[]; live: Item[] } {
  const names = toolNames(envelopes);
  const streaming = envelopes.findIndex((e) => e.status === 'streaming');
  const cut = streaming < 0 ? envelopes.length : streaming;
  return { done: itemsOf(envelopes.slice(0, cut), names), live: itemsOf(envelopes.slice(cut), names) };
}

function StatusLine({ agent, model }: { agent: PersistentSession; model: Model }) {
  const { stdout } = useStdout();
  const width = Math.max(20, (stdout.columns || 80) - 1);
  const id = agent.sessionId ? `session ${agent.sessionId.slice(0, 8)}` : 'new session';
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text dimColor>{'─'.repeat(width)}</Text>
      <Text dimColor wrap="truncate-end">{model.label} · {id} · {agent.messages.length} messages</Text>
      <ContextMeter tokens={agent.tokenUsage.contextTokens} contextWindow={model.contextWindow} width={24} />
    </Box>
  );
}

function Spinning({ text }: { text: string }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % SPINNER.length), 80);
    return () => clearInterval(timer);
  }, []);
  return <Text color="yellow">{SPINNER[frame]} {text}</Text>;
}
