// core.mjs measures the figures the core issue reports, each in a fresh process:
// the addon's load time, ingesting 10,000 stream chunks until durable, and restoring a
// 2,000-message session (sync and async), beside the JSON.parse floor of the same data.
//
//   node bench/core.mjs            (after make build)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const RUNS = 5;

/** turnChunks yields one agent turn as the chunks a streaming agent ingests (26 + tool results). */
function* turnChunks(t) {
  yield { type: 'message_start', id: `msg_${t}`, model: 'claude-opus-4-5' };
  for (let i = 0; i < 5; i++) yield { type: 'thinking', thinking: `thinking about step ${i} of turn ${t}. ` };
  yield { type: 'signature', signature: 'Eq' + 'x'.repeat(300) };
  for (let i = 0; i < 10; i++) yield { type: 'text', text: `word${i} → next ` };
  for (const k of [0, 1]) {
    yield { type: 'tool_use_start', id: `toolu_${t}_${k}`, name: 'Read' };
    yield { type: 'tool_use_delta', partialJson: `{"file_path": "/src/file_${t}_${k}.ts",` };
    yield { type: 'tool_use_delta', partialJson: ` "limit": 200}` };
  }
  yield { type: 'done', stopReason: 'tool_use', usage: { input_tokens: 1000 + t, output_tokens: 200, cache_read_input_tokens: 500, cache_creation_input_tokens: 10 } };
  for (const k of [0, 1]) {
    const body = Array.from({ length: 100 + (t % 7) * 40 }, (_, i) => `${i + 1}→  const x${i} = ${t * k + i}; // ✓`).join('\n');
    yield { type: 'tool_result', toolUseId: `toolu_${t}_${k}`, content: body };
  }
  yield { type: 'text', text: 'Done with this step.' };
  yield { type: 'done', stopReason: 'end_turn', usage: { input_tokens: 1200 + t, output_tokens: 20 } };
}

function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; }

const phases = {
  load() {
    const t0 = performance.now();
    require('../build/Release/sessionkeep.node');
    return performance.now() - t0;
  },
  async ingest(dir) {
    const { openStore } = require('../dist/index.js');
    const chunks = [];
    for (let t = 0; chunks.length < 10_000; t++) chunks.push(...turnChunks(t));
    chunks.length = 10_000;
    const store = openStore(join(dir, 'ingest.db'));
    const s = store.createSession({ projectPath: '/bench' });
    const t0 = performance.now();
    s.appendUserMessage('start');
    for (const c of chunks) s.ingest(c);
    const jsThread = performance.now() - t0;
    await s.flush();
    const total = performance.now() - t0;
    store.close();
    return { jsThread, total };
  },
  prepare(dir) {
    const { openStore } = require('../dist/index.js');
    const store = openStore(join(dir, 'restore.db'));
    const s = store.createSession({ projectPath: '/bench' });
    for (let t = 0; t < 500; t++) {
      s.appendUserMessage(`turn ${t}: please continue`);
      for (const c of turnChunks(t)) s.ingest(c);
    }
    const n = s.messages().length;
    store.close();
    return { id: s.id, messages: n };
  },
  async restore(dir, id) {
    const { openStore } = require('../dist/index.js');
    const store = openStore(join(dir, 'restore.db'));
    let t0 = performance.now();
    const s = store.openSession(id);
    const msgs = s.messages();
    const sync = performance.now() - t0;
    t0 = performance.now();
    await s.messagesAsync();
    const async = performance.now() - t0;
    const json = JSON.stringify(msgs);
    t0 = performance.now();
    JSON.parse(json);
    const floor = performance.now() - t0;
    store.close();
    return { sync, async, floor, bytes: Buffer.byteLength(json), messages: msgs.length };
  },
};

function inChild(phase, ...args) {
  const r = spawnSync(process.execPath, [new URL(import.meta.url).pathname, '--phase', phase, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${phase} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function main() {
  const i = process.argv.indexOf('--phase');
  if (i > 0) {
    const [phase, ...args] = process.argv.slice(i + 1);
    console.log(JSON.stringify(await phases[phase](...args)));
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sk-bench-'));
  try {
    const loads = Array.from({ length: RUNS }, () => inChild('load'));
    const ingests = Array.from({ length: RUNS }, (_, r) => inChild('ingest', mkdtempSync(join(dir, `i${r}-`))));
    const { id, messages } = inChild('prepare', dir);
    const restores = Array.from({ length: RUNS }, () => inChild('restore', dir, id));
    const r = (k) => median(restores.map((x) => x[k])).toFixed(1);
    console.log(`addon load (require of the .node): median ${median(loads).toFixed(2)} ms over ${RUNS} processes`);
    console.log(`ingest 10,000 chunks: JS thread ${median(ingests.map((x) => x.jsThread)).toFixed(1)} ms, until flush() resolved ${median(ingests.map((x) => x.total)).toFixed(1)} ms`);
    console.log(`restore ${messages} messages (${(restores[0].bytes / 1e6).toFixed(1)} MB JSON): open + messages() ${r('sync')} ms, messagesAsync() ${r('async')} ms; JSON.parse floor ${r('floor')} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
