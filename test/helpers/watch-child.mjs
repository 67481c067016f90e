// watch-child <store> <sessionId>: prints {ready} once it watches the session, then, at its
// first change, {seen, text} (the time and the last message's text, read from the stored
// envelopes), stops watching, closes its store and exits.
import { createRequire } from 'node:module';

const { openStore } = createRequire(import.meta.url)('../../dist/index.js');
const [file, id] = process.argv.slice(2);
const store = openStore(file);
const s = store.openSession(id);
const stop = s.watch(() => {
  const last = s.envelopes().at(-1);
  process.stdout.write(`${JSON.stringify({ seen: Date.now(), text: last?.message?.content?.[0]?.text })}\n`);
  stop();
  store.close();
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
