// pg-child does one thing to a store as another process (or host) would, and prints one
// JSON line saying what happened:
//   append <url> <sessionId> <text> <count>   appends count user messages, then flushes
//   bykey <url> <key>                          sessionByKey(key, { create: true })
//   checkpoint <url> <key> <pubsubId>          commits a checkpoint on the key's session
//   watch <url> <sessionId>                    prints {ready}, then {seen, text} at the first change
//   stream <url>                               leaves a reply half streamed, prints {id}, and waits to be killed
import { createRequire } from 'node:module';

const { openStore } = createRequire(import.meta.url)('../../dist/index.js');
const [command, url, ...args] = process.argv.slice(2);
const print = (doc) => process.stdout.write(`${JSON.stringify(doc)}\n`);
const failure = (err) => ({ code: err.code ?? 'THROWN', message: String(err.message) });

const store = openStore(url);
switch (command) {
  case 'append': {
    const [id, text, count] = args;
    const s = store.openSession(id);
    for (let i = 0; i < Number(count); i++) s.appendUserMessage(`${text} ${i}`);
    try {
      await store.flush();
      print({ ok: true });
    } catch (err) {
      print({ ok: false, ...failure(err) });
    }
    store.close();
    break;
  }
  case 'bykey': {
    const s = store.sessionByKey(args[0], { create: true });
    print({ id: s.id });
    store.close();
    break;
  }
  case 'checkpoint': {
    const s = store.sessionByKey(args[0], { create: true });
    s.commitCheckpoint(Number(args[1]));
    await store.flush();
    print({ ok: true });
    store.close();
    break;
  }
  case 'watch': {
    const s = store.openSession(args[0]);
    const stop = s.watch(() => {
      const last = store.openSession(args[0]).tail(1)[0];
      print({ seen: Date.now(), text: last?.message?.content?.[0]?.text });
      stop();
      store.close();
    });
    print({ ready: true });
    break;
  }
  case 'stream': {
    const s = store.createSession({ title: 'killed mid-reply' });
    s.appendUserMessage('tell me a long story');
    s.ingest({ type: 'message_start', id: 'msg_1', model: 'm' });
    s.ingest({ type: 'text', text: 'Once upon a ' });
    await s.flush(); // the partial block is committed; the message stays streaming
    print({ id: s.id });
    setInterval(() => {}, 1000); // until SIGKILL
    break;
  }
  default:
    throw new Error(`pg-child: unknown command ${command}`);
}
