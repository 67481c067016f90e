// node torture-procs.mjs <role> <db> <until> [seed]
// One of several processes sharing one store until the time `until` (ms since the epoch),
// catching every error a call throws or a Promise rejects with. It prints one JSON document:
//   writer: streams the torture script, 2 turns a session, awaiting flush() after each message;
//           {sessions: [{id, messages, hash}], errors}, the hash of each session's messages()
//           as this process read them before closing the store.
//   reader: lists sessions and reads their messages (sync and async) and searches;
//           {reads, errors}.
//   opener: waits for `until`, then opens the store (new: all openers race to create it),
//           records a prompt and flushes; {id, errors}.
import crypto from 'node:crypto';
import { openStore } from './common.mjs';
import { script, apply } from './torture-script.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 5) process.exit(0);

const [role, db, untilArg, seedArg] = process.argv.slice(2);
const until = Number(untilArg);
const errors = [];
const attempt = async (what, fn) => {
  try {
    return await fn();
  } catch (e) {
    errors.push(`${what}: ${e.code ?? e.name}: ${e.message}`);
    return undefined;
  }
};
const hash = (messages) => crypto.createHash('sha256').update(JSON.stringify(messages)).digest('hex');
const print = (o) => process.stdout.write(JSON.stringify({ ...o, errors }) + '\n');

if (role === 'opener') {
  while (Date.now() < until) await new Promise((r) => setTimeout(r, 1));
  const store = await attempt('openStore', () => openStore(db));
  const s = store && await attempt('createSession', () => store.createSession({ projectPath: '/work/openers' }));
  if (s) {
    await attempt('appendUserMessage', () => s.appendUserMessage(`hello from ${process.pid}`));
    await attempt('flush', () => s.flush());
  }
  if (store) await attempt('close', () => store.close());
  print({ id: s?.id });
} else if (role === 'writer') {
  const steps = script(Number(seedArg), 2);
  const store = await attempt('openStore', () => openStore(db));
  const sessions = [];
  while (store && Date.now() < until) {
    const s = await attempt('createSession', () => store.createSession({ projectPath: '/work/writers' }));
    if (!s) break;
    for (const step of steps) {
      await attempt('ingest', () => apply(s, step));
      if (step.user !== undefined || step.chunk?.type === 'done' || step.chunk?.type === 'tool_result') await attempt('flush', () => s.flush());
      else await new Promise(setImmediate);
    }
    const messages = await attempt('messages', () => s.messages());
    sessions.push({ id: s.id, messages: messages?.length, hash: messages && hash(messages) });
    await attempt('session close', () => s.close());
  }
  if (store) await attempt('store flush', () => store.flush());
  if (store) await attempt('close', () => store.close());
  print({ sessions });
} else if (role === 'reader') {
  const store = await attempt('openStore', () => openStore(db));
  let reads = 0;
  while (store && Date.now() < until) {
    const list = await attempt('listSessions', () => store.listSessions({ limit: 20 }));
    for (const info of list ?? []) {
      const s = await attempt('openSession', () => store.openSession(info.id));
      if (!s) continue;
      await attempt('messages', () => s.messages());
      await attempt('messagesAsync', () => s.messagesAsync());
      await attempt('session close', () => s.close());
      reads++;
    }
    await attempt('search', () => store.search('ascii'));
    await new Promise((r) => setTimeout(r, 5));
  }
  if (store) await attempt('close', () => store.close());
  print({ reads });
}
