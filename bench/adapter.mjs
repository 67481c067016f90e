// adapter.mjs is the store interface of ../shared/bench (see its README, "Adding a store")
// on top of sessionkeep's public API, so that `make bench` runs sessionkeep beside the
// JSONL and better-sqlite3 baselines on their own workload.
//
// The harness streams Anthropic Messages API events; they are translated here as a user's
// adapter would: deltas become `text` / `thinking` / `signature` / `tool_use_delta`
// chunks, a tool_use block start becomes `tool_use_start`, message_stop becomes `done`
// with the usage of message_start and message_delta merged (as the SDKs do), and the
// harness's whole user messages (prompts and tool results) go to appendUserMessage.
//
// sessionkeep names sessions itself (UUID v7), so the harness's ids are mapped to ours in
// a small file beside the database. Envelopes come back in sessionkeep's shape and are
// reshaped to the harness's {uuid, parentUuid, sessionId, timestamp, type, message, usage}.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { openStore } = require('../dist/index.js');

export const name = 'sessionkeep';

const DB = 'sessions.db';
const IDS = 'bench-ids.tsv';

/** Title of a session as the harness defines it: the text of its first user message. */
function titleOf(message) {
  if (message.role !== 'user') return undefined;
  const c = message.content;
  if (typeof c === 'string') return c;
  for (const b of c) if (b.type === 'text') return b.text;
  return undefined;
}

/** toHarness reshapes a sessionkeep envelope into the harness's envelope. */
function toHarness(e) {
  const m = e.message;
  if (m.role !== 'assistant') {
    return { uuid: e.uuid, parentUuid: e.parentUuid, sessionId: e.sessionId, timestamp: e.timestamp, type: 'user', message: m };
  }
  const env = {
    uuid: e.uuid, parentUuid: e.parentUuid, sessionId: e.sessionId, timestamp: e.timestamp, type: 'assistant',
    message: {
      id: m.id, type: 'message', role: 'assistant', model: m.model, content: m.content,
      stop_reason: m.stop_reason ?? null, stop_sequence: m.stop_sequence ?? null,
    },
  };
  if (m.usage !== undefined) env.usage = m.usage;
  return env;
}

function toHarnessAll(envelopes) {
  const out = new Array(envelopes.length);
  for (let i = 0; i < envelopes.length; i++) out[i] = toHarness(envelopes[i]);
  return out;
}

/**
 * Writer is one harness session being written: it translates stream events into
 * sessionkeep chunks. The sessionkeep session is created at the first event, so that it
 * can take the harness's title.
 */
class Writer {
  constructor(store, ids, id) {
    this.store = store;
    this.ids = ids;
    this.id = id;
    this.s = ids.has(id) ? store.openSession(ids.get(id)) : null;
    this.count = 0;
    this.usage = undefined;
    this.stopReason = undefined;
    this.stopSequence = undefined;
  }

  start(message) {
    this.s = this.store.createSession({ projectPath: '/bench', title: titleOf(message) });
    this.ids.add(this.id, this.s.id);
  }

  push(ev) {
    const s = this.s;
    switch (ev.type) {
      case 'content_block_delta': {
        const d = ev.delta;
        switch (d.type) {
          case 'text_delta': return s.ingest({ type: 'text', text: d.text });
          case 'thinking_delta': return s.ingest({ type: 'thinking', thinking: d.thinking });
          case 'input_json_delta': return s.ingest({ type: 'tool_use_delta', partialJson: d.partial_json });
          case 'signature_delta': return s.ingest({ type: 'signature', signature: d.signature });
          default: throw new Error(`unknown delta ${d.type}`);
        }
      }
      case 'content_block_start': {
        const b = ev.content_block;
        switch (b.type) {
          case 'tool_use': return s.ingest({ type: 'tool_use_start', id: b.id, name: b.name });
          case 'text': if (b.text) s.ingest({ type: 'text', text: b.text }); return;
          case 'thinking': if (b.thinking) s.ingest({ type: 'thinking', thinking: b.thinking }); return;
          case 'redacted_thinking': return s.ingest({ type: 'redacted_thinking', data: b.data });
          default: throw new Error(`unknown block ${b.type}`);
        }
      }
      case 'content_block_stop':
        return; // the next block or `done` ends it
      case 'message_start': {
        const m = ev.message;
        this.usage = { ...m.usage };
        this.stopReason = this.stopSequence = undefined;
        return s.ingest({ type: 'message_start', id: m.id, model: m.model });
      }
      case 'message_delta':
        this.stopReason = ev.delta.stop_reason;
        this.stopSequence = ev.delta.stop_sequence;
        if (ev.usage) Object.assign(this.usage, ev.usage);
        return;
      case 'message_stop':
        this.count++;
        return s.ingest({ type: 'done', stopReason: this.stopReason, stopSequence: this.stopSequence, usage: this.usage });
      case 'user_message':
        if (this.s === null) this.start(ev.message);
        this.count++;
        this.s.appendUserMessage(ev.message.content);
        return;
      case 'ping':
        return;
      default:
        throw new Error(`unknown event ${ev.type}`);
    }
  }

  end() {
    if (this.s) this.s.close();
  }
}

/** Ids maps the harness's session names to sessionkeep's ids, kept in a file beside the database. */
class Ids {
  constructor(dir) {
    this.file = path.join(dir, IDS);
    this.map = new Map();
    if (fs.existsSync(this.file)) {
      for (const line of fs.readFileSync(this.file, 'utf8').split('\n')) {
        const [theirs, ours] = line.split('\t');
        if (ours) this.map.set(theirs, ours);
      }
    }
  }

  has(id) { return this.map.has(id); }

  get(id) {
    const ours = this.map.get(id);
    if (ours === undefined) throw new Error(`no session ${id}`);
    return ours;
  }

  add(theirs, ours) {
    this.map.set(theirs, ours);
    fs.appendFileSync(this.file, `${theirs}\t${ours}\n`);
  }
}

export function open(dir) {
  return openAt(dir, storeFile(dir), () => storeBytes(dir));
}

/** storeFile is the SQLite file of the harness's store in dir. */
export function storeFile(dir) {
  return path.join(dir, DB);
}

/** storeBytes is what the harness's SQLite store in dir takes on disk: the file, its WAL and
 *  shared memory, and the id map. */
export function storeBytes(dir) {
  let n = 0;
  for (const f of [DB, `${DB}-wal`, `${DB}-shm`, IDS]) {
    try { n += fs.statSync(path.join(dir, f)).size; } catch { /* absent */ }
  }
  return n;
}

/**
 * openAt is the harness's store over the sessionkeep store at `location` (a file or a
 * postgres:// URL), keeping its id map in dir; size() is what the store takes on disk.
 */
export function openAt(dir, location, size) {
  fs.mkdirSync(dir, { recursive: true });
  const store = openStore(location);
  const ids = new Ids(dir);

  /** withSession runs fn on the sessionkeep session of harness id, closing it after. */
  async function withSession(id, fn) {
    const s = store.openSession(ids.get(id));
    try {
      return await fn(s);
    } finally {
      s.close();
    }
  }

  return {
    name,
    dir,
    session(id) {
      const w = new Writer(store, ids, id);
      return { push: (ev) => w.push(ev), end: () => w.end(), get count() { return w.count; } };
    },
    sync: () => store.flush(),
    restore: (id) => withSession(id, async (s) => toHarnessAll(await s.envelopesAsync())),
    // The last few messages are a sub-millisecond read: the sync form spares the round trip
    // through the thread pool that the async form (for long tails) pays.
    tail: (id, n) => withSession(id, (s) => toHarnessAll(s.tail(n))),
    list: () => store.listSessions({ fields: ['id', 'title', 'messageCount', 'updatedAt'] }).map((i) => ({ sessionId: i.id, title: i.title, messageCount: i.messageCount, updatedAt: i.updatedAt })),
    size,
    close: () => store.close(),
  };
}
