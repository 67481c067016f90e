// node multi-host-child.mjs <role> <store> <arg> [seed]
// One "host" of the multi-host test (test/126): its own process, so its own connection pool
// to the one store. It prints JSON documents, one a line, and catches every error a call
// throws (listed in `errors`).
//   host <until>:    until the time `until` (ms since the epoch), streams the torture script's
//                    2 turns into new sessions, flushing after each message, and between
//                    sessions reads the newest sessions of the other hosts, checking each is
//                    valid; then {sessions: [{id, messages, hash}], reads, invalid, errors}.
//   stream <turns>:  streams one session of many turns; once 2 turns are durable it prints
//                    {id, durable} and goes on streaming until it is killed.
//   resume <id>:     opens session id, reads it, writes one more turn into it and flushes;
//                    {before, after, valid (of the context built after), last, errors}.
import crypto from 'node:crypto';
import { openStore } from './common.mjs';
import { script, apply } from './torture-script.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 5) process.exit(0);

const [role, location, arg, seedArg] = process.argv.slice(2);
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

/**
 * valid reports whether messages are whole as a provider needs them: they start with the
 * user, and every tool_use is answered in the next message (a last one may still wait).
 */
function valid(messages) {
  if (messages.length > 0 && messages[0].role !== 'user') return false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const calls = m.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (calls.length === 0) continue;
    const answered = new Set((messages[i + 1]?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
    if (i + 1 < messages.length && !calls.every((id) => answered.has(id))) return false;
  }
  return true;
}

const store = await attempt('openStore', () => openStore(location));
if (!store) {
  print({});
  process.exit(0);
}

if (role === 'host') {
  const until = Number(arg);
  const seed = Number(seedArg);
  const steps = script(seed, 2);
  const sessions = [];
  let reads = 0;
  const invalid = [];
  while (Date.now() < until) {
    const s = await attempt('createSession', () => store.createSession({ projectPath: `/hosts/${seed}` }));
    if (!s) break;
    for (const step of steps) {
      await attempt('ingest', () => apply(s, step));
      if (step.user !== undefined || step.chunk?.type === 'done' || step.chunk?.type === 'tool_result') await attempt('flush', () => s.flush());
    }
    const messages = await attempt('messages', () => s.messages());
    sessions.push({ id: s.id, messages: messages?.length, hash: messages && hash(messages) });
    await attempt('session close', () => s.close());
    // Read what the other hosts wrote: the newest sessions, some still being streamed.
    const others = (await attempt('listSessions', () => store.listSessions({ limit: 6 }))) ?? [];
    for (const info of others.filter((i) => i.projectPath !== `/hosts/${seed}`)) {
      const other = await attempt('openSession', () => store.openSession(info.id));
      if (!other) continue;
      const read = await attempt('messagesAsync', () => other.messagesAsync());
      if (read && !valid(read)) invalid.push(info.id);
      await attempt('other close', () => other.close());
      reads++;
    }
  }
  await attempt('close', () => store.close());
  print({ sessions, reads, invalid });
} else if (role === 'stream') {
  const steps = script(Number(seedArg ?? 7), Number(arg));
  const s = await attempt('createSession', () => store.createSession({ projectPath: '/hosts/streamer' }));
  let durable = 0;
  for (const step of steps) {
    await attempt('ingest', () => apply(s, step));
    if (step.chunk?.type === 'done' && step.chunk.stopReason === 'end_turn') {
      await attempt('flush', () => s.flush());
      durable += 4;
      if (durable === 8) print({ id: s.id, durable });
    }
    await new Promise((r) => setTimeout(r, 2)); // a model streams: the kill lands mid-message
  }
  print({ finished: true }); // the test kills it long before this
} else if (role === 'resume') {
  const s = await attempt('openSession', () => store.openSession(arg));
  const before = s && (await attempt('messages', () => s.messages()));
  if (s) {
    await attempt('appendUserMessage', () => s.appendUserMessage('the host that took over asks: where were we?'));
    await attempt('message_start', () => s.ingest({ type: 'message_start', id: 'msg_resumed', model: 'claude-sonnet-4-5' }));
    await attempt('text', () => s.ingest({ type: 'text', text: 'We were in the middle of a tool call; it was interrupted.' }));
    await attempt('done', () => s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } }));
    await attempt('flush', () => s.flush());
  }
  const after = s && (await attempt('messages again', () => s.messages()));
  // The context for the next model call: the interrupted tool call answered as interrupted.
  const context = s && (await attempt('buildContext', () => s.buildContext({ contextWindow: 200_000 })));
  if (s) await attempt('session close', () => s.close());
  await attempt('close', () => store.close());
  print({ before: before?.length, after: after?.length, valid: Boolean(context && valid(context.messages)), last: after?.at(-1) });
}
