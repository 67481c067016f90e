// second-writer-child is a second process writing a session another process streams a reply
// into. It opens the session, prints {opened}, and at a line on stdin streams a reply of
// its own, flushes, ends it and appends a prompt after it, flushes again, and prints each
// flush's outcome: {flushes: [{ok} or {ok: false, code, message}, ...]}.
//   node second-writer-child.mjs <db> <sessionId>
import { createRequire } from 'node:module';

const { openStore } = createRequire(import.meta.url)('../../dist/index.js');
const [db, id] = process.argv.slice(2);
const print = (doc) => process.stdout.write(`${JSON.stringify(doc)}\n`);

const store = openStore(db);
const s = store.openSession(id);
print({ opened: true });
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
const flush = () => store.flush().then(() => ({ ok: true }), (err) => ({ ok: false, code: err.code, message: String(err.message) }));
s.ingest({ type: 'message_start', id: 'msg_second', model: 'second-model' });
s.ingest({ type: 'text', text: 'from the second writer' });
const flushes = [await flush()]; // its block rows, were they written, are on disk now
s.ingest({ type: 'done', stopReason: 'end_turn' });
s.appendUserMessage('a prompt after the second writer\'s reply');
flushes.push(await flush());
print({ flushes });
store.close();
