// node api-fuzz-child.mjs <db> <seed> <calls>
// Calls the public API at random with random and malformed arguments (chunks, messages,
// options, content nested 5,000 deep, circular, huge, calls after close), a seeded run so a
// failure can be replayed. It prints one JSON line: how many calls returned and threw, each
// error that is neither a SessionError nor a TypeError (or is one saying sessionkeep failed), and each time a rejected call
// changed a session or the messages of the first session lost what they held.
import { createRequire } from 'node:module';
import { storeLocation } from './store-location.mjs';
import { mulberry32 } from './torture-script.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 5) process.exit(0);

const require = createRequire(import.meta.url);
const { SessionError } = require('../../dist/index.js');
const openStore = (db, ...rest) => require('../../dist/index.js').openStore(storeLocation(db), ...rest);
const [db, seedArg, callsArg] = process.argv.slice(2);

// Seeded, so a run can be replayed from its seed.
const random = mulberry32(Number(seedArg));
const pick = (items) => items[Math.floor(random() * items.length)];

function nested(depth, array) {
  const root = array ? [] : {};
  let at = root;
  for (let i = 0; i < depth; i++) {
    const next = array ? [] : {};
    if (array) at.push(next);
    else at.a = next;
    at = next;
  }
  return root;
}
const circular = {};
circular.self = circular;

const TYPES = ['message_start', 'text', 'thinking', 'signature', 'redacted_thinking', 'tool_use', 'tool_use_start',
  'tool_use_delta', 'tool_result', 'done', 'error', 'block', 'block_start', 'block_fields', 'nope', '', 'TEXT'];
const KEYS = ['type', 'text', 'thinking', 'signature', 'data', 'id', 'name', 'input', 'partialJson', 'toolUseId', 'content',
  'isError', 'raw', 'stopReason', 'usage', 'block', 'fields', 'model', 'role', 'source', 'tool_use_id', 'cwd', '__proto__'];

/** value returns a random value: usually a plain one, sometimes one callers get wrong. */
function value(depth = 0) {
  const r = random();
  if (r < 0.25) return pick(['', 'x', 'hé\u2028', '\uD800', '\u0000', 'x'.repeat(50000), 't1', 't2', '{"a":', 'end_turn']);
  if (r < 0.35) return pick([0, -1, 1.5, NaN, Infinity, 2 ** 53, -0]);
  if (r < 0.45) return pick([undefined, null, true, false]);
  if (r < 0.5) return pick([nested(5000, false), nested(5000, true), circular, 10n, Symbol('s'), () => 1, new Uint8Array([1, 2]), new Date(0), new Map()]);
  if (depth > 3) return 'leaf';
  if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
  const obj = {};
  for (let i = Math.floor(random() * 5); i > 0; i--) obj[pick(KEYS)] = value(depth + 1);
  return obj;
}

/** typed returns a value of the type a chunk's field takes, the content a random one. */
const typed = {
  string: () => pick(['', 'x', 'hé\u2028', '\uD800', '{"a":', '1}', 'x'.repeat(50000), 't1']),
  object: () => (random() < 0.5 ? { type: pick(['text', 'tool_use', 'image', 'x']), text: value(), id: 't2', input: value() } : value()),
  content: () => (random() < 0.5 ? typed.string() : [typed.object()]),
  boolean: () => random() < 0.5,
};
const FIELD_TYPES = { text: 'string', thinking: 'string', signature: 'string', data: 'string', partialJson: 'string', id: 'string',
  name: 'string', toolUseId: 'string', stopReason: 'string', model: 'string', input: 'object', usage: 'object', raw: 'object',
  block: 'object', fields: 'object', content: 'content', isError: 'boolean' };

/** chunk returns a chunk: of a real type with fields of the right types or not, or anything at all. */
function chunk() {
  if (random() < 0.1) return value();
  const c = { type: pick(TYPES) };
  for (let i = Math.floor(random() * 4); i > 0; i--) {
    const key = pick(KEYS);
    c[key] = FIELD_TYPES[key] && random() < 0.7 ? typed[FIELD_TYPES[key]]() : value();
  }
  if (random() < 0.3) c.id = pick(['t1', 't2']);
  if (random() < 0.3) c.toolUseId = pick(['t1', 't2', 'none']);
  return c;
}

const tally = { returned: 0, threw: 0, codes: {}, bad: [], changed: [] };
function outcome(op, err) {
  if (err === undefined) {
    tally.returned++;
    return;
  }
  tally.threw++;
  const kind = err instanceof SessionError ? `SessionError:${err.code}` : err instanceof TypeError ? 'TypeError' : `${err?.name}`;
  tally.codes[kind] = (tally.codes[kind] ?? 0) + 1;
  // INTERNAL and STORAGE_ERROR say sessionkeep failed, not that the caller passed something wrong.
  if (!(err instanceof SessionError || err instanceof TypeError) || err.code === 'INTERNAL' || err.code === 'STORAGE_ERROR') {
    tally.bad.push({ op, name: err?.name, message: String(err?.message ?? err).slice(0, 300), stack: String(err?.stack).slice(0, 600) });
  }
}

const store = openStore(db);
const first = store.createSession({ projectPath: '/fuzz' });
first.appendUserMessage('read the config');
first.ingest({ type: 'message_start', id: 'msg_1' });
first.ingest({ type: 'tool_use', id: 't1', name: 'Read', input: { path: 'config.json' } });
first.ingest({ type: 'done', stopReason: 'tool_use' });
first.ingest({ type: 'tool_result', toolUseId: 't1', content: '{"port": 8080}' });
const before = JSON.stringify(first.messages());
const sessions = [first, store.createSession()];

/** safeMessages returns a session's messages as JSON, or undefined once it is closed. */
function safeMessages(s) {
  try {
    return JSON.stringify(s.messages());
  } catch {
    return undefined;
  }
}

const OPS = {
  ingest: (s) => s.ingest(chunk()),
  appendUserMessage: (s) => s.appendUserMessage(random() < 0.5 ? value() : [{ type: pick(['text', 'image', 'x']), text: value(), source: value() }], random() < 0.5 ? value() : undefined),
  restoreMessages: (s) => s.restoreMessages(random() < 0.5 ? value() : [{ role: pick(['user', 'assistant', 'x']), content: value() }]),
  setContext: (s) => s.setContext(value()),
  restoreTokenTracker: (s) => s.restoreTokenTracker(value()),
  buildContext: (s) => s.buildContext(random() < 0.5 ? value() : { contextWindow: value(), format: value(), systemPrompt: value() }),
  tail: (s) => s.tail(value()),
  turns: (s) => s.turns(),
  messages: (s) => s.messages(),
  flush: (s) => s.flush(),
  close: (s) => s.close(),
  createSession: () => sessions.push(store.createSession(value())),
  openSession: () => store.openSession(value()),
  listSessions: () => store.listSessions(value()),
  search: () => store.search(value(), value()),
  fileContent: (s) => s.fileContent(value(), value()),
  fileContentAsync: (s) => s.fileContentAsync(value(), value()),
};

const calls = Number(callsArg);
for (let i = 0; i < calls; i++) {
  const s = pick(sessions);
  let name = pick(Object.keys(OPS));
  // The first session is the one checked for loss; closing others often would leave little to call.
  if (name === 'close' && (s === first || random() < 0.7)) name = 'ingest';
  const was = safeMessages(s);
  let err;
  try {
    const result = OPS[name](s);
    if (result && typeof result.then === 'function') await result.catch((e) => { err = e; });
  } catch (e) {
    err = e;
  }
  outcome(name, err);
  if (err !== undefined && was !== undefined && name !== 'close') {
    const now = safeMessages(s);
    if (now !== was) tally.changed.push({ op: name, call: i, error: String(err.message).slice(0, 200) });
  }
  if (i === Math.floor(calls * 0.9)) {
    // Close the store and keep calling: every call must say STORE_CLOSED or TypeError.
    await store.flush().catch(() => {});
    const kept = JSON.parse(JSON.stringify(first.messages()));
    tally.firstIntact = JSON.stringify(kept.slice(0, JSON.parse(before).length)) === before;
    store.close();
  }
}
console.log(JSON.stringify(tally));
