// node search-writer-child.mjs <db> <variant> <word>
// Writes a prompt and a reply that mention <word> (and 300 other messages, so that more than
// one slice of blocks waits to be indexed for search), then:
//   "close":       closes the store and exits; prints { id } first.
//   "killed-busy": flushes, prints { id }, and keeps its writer busy with a streaming block
//                  (a delta every 5 ms), so it is never idle long enough to index for
//                  search, until the parent kills it.
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, variant, word] = process.argv.slice(2);
const store = openStore(db);
const filler = store.createSession({ projectPath: '/work/filler' });
for (let i = 0; i < 300; i++) filler.appendUserMessage(`filler message ${i}`);
const s = store.createSession({ projectPath: '/work/search' });
s.appendUserMessage(`Where is ${word} defined?`);
s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
s.ingest({ type: 'text', text: `In src/${word}.ts, ` });
s.ingest({ type: 'text', text: 'line 12.' });
s.ingest({ type: 'done', stopReason: 'end_turn' });
const line = JSON.stringify({ id: s.id }) + '\n';

if (variant === 'close') {
  store.close();
  process.stdout.write(line);
} else {
  await s.flush();
  const busy = store.createSession({ projectPath: '/work/busy' });
  busy.appendUserMessage('keep streaming');
  busy.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
  process.stdout.write(line);
  setInterval(() => busy.ingest({ type: 'text', text: '.' }), 5);
}
