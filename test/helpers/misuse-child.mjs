// node misuse-child.mjs <db>
// Calls the addon the wrong way in every way a program could (the raw native functions
// included: no handle, a plain object, a handle of the wrong kind, wrong argument types,
// a closed handle) and prints, for each call, how it failed. The parent checks that each
// call threw and that this process got to the end and exited normally.
import { createRequire } from 'node:module';
import { storeLocation } from './store-location.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const require = createRequire(import.meta.url);
const { native } = require('../../dist/native.js');
const openStore = (db, ...rest) => require('../../dist/index.js').openStore(storeLocation(db), ...rest);

const outcomes = {};
function attempt(name, fn) {
  try {
    fn();
    outcomes[name] = 'returned';
  } catch (e) {
    outcomes[name] = `${e.name}:${e.code}`;
  }
}

const [storeHandle] = native.openStore(process.argv[2]);
const [sessionHandle] = native.createSession(storeHandle, '{}');
attempt('messages()', () => native.messages());
attempt('messages({})', () => native.messages({}));
attempt('messages(42)', () => native.messages(42));
attempt('messages(storeHandle)', () => native.messages(storeHandle));
attempt('createSession(sessionHandle)', () => native.createSession(sessionHandle, '{}'));
attempt('createSession(bad JSON)', () => native.createSession(storeHandle, '{nope'));
attempt('ingestText(session, 5)', () => native.ingestText(sessionHandle, 5));
attempt('ingestText(session, Symbol)', () => native.ingestText(sessionHandle, Symbol('x')));
attempt('ingestToolResult(session, id, not JSON)', () => native.ingestToolResult(sessionHandle, 'x', '{not json', false, undefined));
attempt('restoreMessages(session, not JSON)', () => native.restoreMessages(sessionHandle, '[{'));
attempt('restoreTokenTracker(session, not JSON)', () => native.restoreTokenTracker(sessionHandle, 'nope'));
attempt('listSessions(store, 5)', () => native.listSessions(storeHandle, 5));
attempt('setErrorClass(5)', () => native.setErrorClass(5));
attempt('rejectChunk(undefined)', () => native.rejectChunk(undefined));

const store = openStore(process.argv[2]);
const s = store.createSession();
attempt('ingest(Proxy that throws)', () => s.ingest(new Proxy({}, { get() { throw new Error('boom'); } })));
attempt('ingest(tool_use with circular input)', () => {
  const input = {};
  input.self = input;
  s.ingest({ type: 'tool_use', id: 'c', name: 'n', input });
});
attempt('appendUserMessage(BigInt in block)', () => s.appendUserMessage([{ type: 'text', text: 'x', n: 1n }]));
native.sessionClose(sessionHandle);
native.storeClose(storeHandle);
attempt('messages(closed session)', () => native.messages(sessionHandle));
attempt('createSession(closed store)', () => native.createSession(storeHandle, '{}'));
s.appendUserMessage('still works');
outcomes['messages after all that'] = s.messages();
store.close();
process.stdout.write(JSON.stringify(outcomes) + '\n');
