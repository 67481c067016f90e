import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Static, Text, useApp, useInput, useStdout } from 'ink';
import { completeSessionCommand, type CompactionEvent, type ContextResult, type Envelope, type SessionCommandAction, type SessionCommandResult, type Store } from 'sessionkeep';
import { CommandCompletions, ContextMeter, formatTokens, usePersistentSession, useSessionCommands, type PersistentSession } from 'sessionkeep/ink';
import { KEEP_RECENT_TURNS, runTurn } from './agent.js';
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
  /** What a session command asks of the app: open another session, pick one, start anew, reload. */
  onAction: (action: Exclude<SessionCommandAction, { type: 'confirm' }>) => void;
}

/** Unkeyed is an item before it gets its key. */
type Unkeyed<T = Item> = T extends Item ? Omit<T, 'key'> : never;

/** Appended is a line of the screen that is not a stored message, printed after the `at`-th item. */
interface Appended {
  at: number;
  item: Item;
}

/** At most this many earlier items are printed when a session is resumed. */
const RESUME_ITEMS = 400;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * AgentModal is the conversation screen, after seed 000's AgentModal: the transcript with
 * every tool call and result as it arrives, the context meter, and the prompt. The session
 * is the only state: the transcript is drawn from what the store holds. A line starting with
 * "/" is a session command (sessionkeep's runSessionCommand, through useSessionCommands);
 * what the commands say, and automatic compactions, are printed between the messages.
 */
export function AgentModal({ store, sessionId, model, root, banner, onSession, onAction }: AgentModalProps) {
  const { exit } = useApp();
  const agent = usePersistentSession({
    store,
    sessionId,
    create: { projectPath: root, provider: model.provider, model: model.model, contextWindow: model.contextWindow },
  });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [context, setContext] = useState<ContextResult | null>(null);
  const [typed, setTyped] = useState('');
  const { stdout } = useStdout();
  // Lines printed between the messages; `shownItems` is how many items are printed so far.
  const [appended, setAppended] = useState<Appended[]>([]);
  const shownItems = useRef(0);
  const print = (item: Unkeyed) => setAppended((list) => [...list, { at: shownItems.current, item: { ...item, key: `appended:${list.length}` } as Item }]);
  const commands = useSessionCommands({
    store,
    session: agent.session,
    projectPath: root,
    root,
    contextWindow: model.contextWindow,
    summarize: model.summarize,
    summaryModel: model.model,
    keepRecentTurns: KEEP_RECENT_TURNS,
    width: Math.max(40, (stdout.columns || 80) - 4),
    onResult: (result, line) => {
      print(commandItem(line, result));
      // A compaction changes what the next call is sent: the meter shows it now.
      if (result.command === '/compact --apply' && !result.error && agent.session) {
        agent.session.buildContextAsync({ contextWindow: model.contextWindow }).then(setContext, (err: Error) => setFailure(err.message));
      }
    },
    onAction,
  });
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
      if (await commands.submit(line)) return;
      // Every message carries where it was written, as Claude Code's records do.
      const context = { cwd: root, platform: process.platform };
      agent.appendUserMessage(line, { context });
      await agent.run((session) => {
        session.setContext(context);
        return runTurn(session, model, root, { signal: abort.current.signal, onContext: setContext, onCompaction: (e) => print(compactionItem(e)) });
      });
    } catch (err) {
      if (!abort.current.signal.aborted) setFailure(err instanceof Error ? err.message : String(err));
    } finally {
      if (!abort.current.signal.aborted) setBusy(false);
    }
  };

  // Finished messages go to <Static>: printed once, above the live part, and never redrawn.
  const { done, live } = useMemo(() => split(agent.envelopes), [agent.envelopes]);
  const staticItems = useStaticItems(banner, done, appended, agent.status === 'loading');
  shownItems.current = done.length;
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
      {commands.pending && <Text color="yellow">{commands.pending.question} [y/n]</Text>}
      <StatusLine agent={agent} model={model} context={context} />
      <PromptInput
        active={!busy && agent.status !== 'error' && agent.status !== 'loading'}
        busyText={agent.status === 'loading' ? 'Loading the session…'
          : commands.running ? `Running ${commands.running}…` : 'Working… (Ctrl-C quits; the session keeps what has arrived)'}
        onSubmit={(line) => void submit(line)}
        onChange={setTyped}
        complete={completeCommand}
      />
      {!busy && <CommandCompletions input={typed} />}
    </Box>
  );
}

type StaticItem = Item | { key: string; kind: 'banner'; lines: string[] };

/**
 * useStaticItems grows the list <Static> prints: the banner, then the items of finished
 * messages, once the session is loaded (a resumed session's history appears at once, the
 * latest RESUME_ITEMS of it).
 */
function useStaticItems(banner: string[], done: Item[], appended: Appended[], loading: boolean): StaticItem[] {
  const skipped = useRef<number | null>(null);
  if (skipped.current === null && !loading) skipped.current = Math.max(0, done.length - RESUME_ITEMS);
  return useMemo(() => {
    const head: StaticItem = { key: 'banner', kind: 'banner', lines: banner };
    if (skipped.current === null) return [head];
    const note: StaticItem[] = skipped.current > 0 ? [{ key: 'skipped', kind: 'note', tone: 'dim', text: `${skipped.current} earlier items not shown` }] : [];
    return [head, ...note, ...interleave(done, appended).slice(skipped.current)];
  }, [banner, done, appended, loading]);
}

/**
 * interleave puts each appended line after the items that were printed when it came. Both
 * only grow at their ends, so the list does too, as <Static> needs.
 */
function interleave(done: Item[], appended: Appended[]): Item[] {
  const out: Item[] = [];
  let next = 0;
  done.forEach((item, i) => {
    while (next < appended.length && appended[next].at <= i) out.push(appended[next++].item);
    out.push(item);
  });
  while (next < appended.length) out.push(appended[next++].item);
  return out;
}

/** completeCommand is Tab on the prompt: the first command that fits, with a space before its arguments. */
function completeCommand(line: string): string | null {
  const [first] = completeSessionCommand(line);
  if (!first || first.name.length < line.trim().length) return null;
  return first.args ? `${first.name} ` : first.name;
}

/** commandItem is what a command said, under the line typed. */
function commandItem(line: string, result: SessionCommandResult): Unkeyed {
  return { kind: 'command', line, text: result.output?.text ?? '', isError: result.error !== undefined };
}

/** compactionItem says that the context was compacted at the threshold, and by how much. */
function compactionItem(e: CompactionEvent): Unkeyed {
  if (e.phase === 'start') {
    return { kind: 'note', tone: 'warn', text: `The context is past the compaction threshold: summarizing ${e.plan.summarizedMessageCount} older messages…` };
  }
  const b = e.result?.boundary;
  const sizes = b ? `; the context went from ${formatTokens(b.tokensBefore)} to ${formatTokens(b.tokensAfter)} tokens` : '';
  return { kind: 'note', tone: 'warn', text: `Compacted automatically: ${e.plan.summarizedMessageCount} messages summarized${sizes}. They are all kept; /debug context shows what is sent.` };
}

/** split puts the items of finished messages apart from those of the message still streaming. */
function split(envelopes: Envelope[]): { done: Item[]; live: Item[] } {
  const names = toolNames(envelopes);
  const streaming = envelopes.findIndex((e) => e.status === 'streaming');
  const cut = streaming < 0 ? envelopes.length : streaming;
  return { done: itemsOf(envelopes.slice(0, cut), names), live: itemsOf(envelopes.slice(cut), names) };
}

function StatusLine({ agent, model, context }: { agent: PersistentSession; model: Model; context: ContextResult | null }) {
  const { stdout } = useStdout();
  const width = Math.max(20, (stdout.columns || 80) - 1);
  const id = agent.sessionId ? `session ${agent.sessionId.slice(0, 8)}` : 'new session';
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text dimColor>{'─'.repeat(width)}</Text>
      <Text dimColor wrap="truncate-end">{model.label} · {id} · {agent.messages.length} messages</Text>
      {/* The built context once there is one; before it (a resumed session), the stored size. */}
      {context
        ? <ContextMeter context={context} width={24} />
        : <ContextMeter tokens={agent.tokenUsage.contextTokens} contextWindow={model.contextWindow} width={24} />}
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
