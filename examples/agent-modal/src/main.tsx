#!/usr/bin/env node
/**
 * agent-modal: a terminal coding agent whose every message, tool call and tool result is
 * recorded by sessionkeep as it streams, and resumed exactly with --continue or --resume.
 */
import { useMemo, useState } from 'react';
import { render } from 'ink';
import { openStore, resolveSession, SessionError, type ResumeRequest, type SessionCommandAction, type SessionInfo, type Store } from 'sessionkeep';
import { SessionPicker } from 'sessionkeep/ink';
import { AgentModal } from './AgentModal.js';
import { anthropicModel } from './anthropic-model.js';
import { parseArgs, USAGE } from './args.js';
import type { Model } from './model.js';
import { scriptedModel } from './scripted-model.js';

/**
 * What the screen shows: a session (null: a new one) or the picker over `sessions` (`back`:
 * the chat a /resume came from, where q returns).
 */
type Opening = { pick: true; sessions: SessionInfo[]; back?: Chat } | Chat;
type Chat = { pick: false; sessionId: string | null; note: string[] };

const NEW: Chat = { pick: false, sessionId: null, note: ['New session.'] };

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`agent-modal: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!process.stdin.isTTY) {
    process.stderr.write('agent-modal: it reads keys from a terminal; run it in one (stdin is not a TTY)\n');
    return 2;
  }
  const root = process.cwd();
  const store = openStore(args.db);
  try {
    const model = await chooseModel(root);
    let opening: Opening;
    try {
      opening = open(store, args.request, root, model);
    } catch (err) {
      if (!(err instanceof SessionError)) throw err;
      process.stderr.write(`agent-modal: ${err.message}\n`);
      return 1;
    }
    const seen: { sessionId?: string } = {};
    const app = render(<App store={store} root={root} model={model} opening={opening} onSession={(id) => { seen.sessionId = id; }} />);
    // A signal ends the app as Ctrl-C does: unmounting closes the session, then the store flushes.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => app.unmount());
    await app.waitUntilExit();
    await store.flush();
    if (seen.sessionId) {
      process.stdout.write(`Session ${seen.sessionId} is saved in ${store.path}.\n`
        + `Go on with it: agent-modal --continue, or agent-modal --resume ${seen.sessionId.slice(0, 8)}\n`);
    }
    return 0;
  } finally {
    store.close();
  }
}

/**
 * open decides what the screen starts with. --continue and --resume go through sessionkeep's
 * resolveSession; a new session (--new, or no flag) is left to the screen, which creates it
 * with the first prompt, so starting and quitting leaves no empty session.
 */
function open(store: Store, request: ResumeRequest, root: string, model: Model): Opening {
  if (request.mode === 'new' || request.mode === 'default') return NEW;
  const r = resolveSession(store, request, { projectPath: root, provider: model.provider, model: model.model, contextWindow: model.contextWindow });
  if (r.action === 'pick') return { pick: true, sessions: r.sessions };
  // The screen opens the session it shows; this object is let go.
  r.session.close();
  if (r.action === 'created') return { pick: false, sessionId: r.session.id, note: ['No earlier session in this folder: this is a new one.'] };
  return { pick: false, sessionId: r.session.id, note: r.summary.text.split('\n') };
}

/** resumed is the screen for a session picked from the list, with its resume summary. */
function resumed(store: Store, id: string): Chat {
  const session = store.openSession(id);
  try {
    return { pick: false, sessionId: id, note: session.resumeSummary().text.split('\n') };
  } finally {
    session.close();
  }
}

/** chooseModel is Claude when there is an API key, else the scripted model. */
async function chooseModel(root: string): Promise<Model> {
  const key = process.env.ANTHROPIC_API_KEY;
  if (key) return anthropicModel(key, root);
  const delay = Number(process.env.AGENT_MODAL_DELAY_MS ?? 15);
  return scriptedModel(root, Number.isFinite(delay) && delay >= 0 ? delay : 15);
}

interface AppProps {
  store: Store;
  root: string;
  model: Model;
  opening: Opening;
  onSession: (id: string) => void;
}

/**
 * App shows the session picker first when --resume came without an id, then the agent. A
 * session command may change what it shows: /resume, /fork, /new, /session archive, /rewind.
 * Each change draws the agent afresh (a new key), since what is printed cannot be taken back.
 */
function App({ store, root, model, opening, onSession }: AppProps) {
  const [{ current, screen }, setState] = useState({ current: opening, screen: 0 });
  const show = (next: Opening) => setState((s) => ({ current: next, screen: s.screen + 1 }));
  const note = current.pick ? null : current.note;
  const banner = useMemo(() => [`sessionkeep agent-modal · ${model.label} · tools run in ${root}`, ...(note ?? [])], [model, root, note]);
  if (current.pick) {
    const back = current.back;
    return (
      <SessionPicker
        sessions={current.sessions}
        onResume={(info) => show(resumed(store, info.id))}
        onNew={() => show(NEW)}
        onQuit={back ? () => show(back) : undefined}
      />
    );
  }
  const onAction = (action: Exclude<SessionCommandAction, { type: 'confirm' }>) => {
    if (action.type === 'pick-session') show({ pick: true, sessions: action.sessions, back: current });
    else if (action.type === 'new-session') show(NEW);
    else if (action.type === 'open-session' && action.reason === 'fork') show({ pick: false, sessionId: action.sessionId, note: [`Forked: session ${action.sessionId}.`] });
    else if (action.type === 'open-session') show(resumed(store, action.sessionId));
    else if (action.type === 'reload') show({ pick: false, sessionId: action.sessionId, note: [`Rewound to before "${action.prompt}".`] });
  };
  return <AgentModal key={screen} store={store} sessionId={current.sessionId} model={model} root={root} banner={banner} onSession={onSession} onAction={onAction} />;
}

process.exitCode = await main();
