// Large message bodies are stored packed (s2) in the SQLite file: through the real addon, a
// session with large tool outputs reads back the same every way (sync, async, tail, export,
// a fork, after reopening), search finds and quotes words inside them, and the file is
// smaller than the JSON it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempDir, sqliteFileOnly } from './helpers/common.mjs';

/** output returns about `size` bytes of a `cat -n` listing, non-ASCII arrows included, with
 * `word` on one line. */
function output(size, word, seed) {
  const lines = [];
  for (let i = 1, n = 0; n < size; i++) {
    const line = `${String(i).padStart(6)}→  const value${(i * seed) % 97} = compute(input, ${i}); ${i === 40 ? word : ''}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}

/** record writes `turns` turns, each a tool call answered by a large output, into session s. */
function record(s, turns) {
  s.appendUserMessage('Read the sources');
  for (let i = 0; i < turns; i++) {
    s.ingest({ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/src/f${i}.ts` } });
    s.ingest({ type: 'done', stopReason: 'tool_use' });
    s.ingest({ type: 'tool_result', toolUseId: `toolu_${i}`, content: output(30000, `marker${i}x`, i + 3) });
  }
  s.ingest({ type: 'text', text: 'Read them all.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
}

test('large bodies read back the same every way, are searched, and make the file smaller than their JSON', { skip: sqliteFileOnly('the size of the SQLite file') }, async (t) => {
  const dir = tempDir(t);
  const db = path.join(dir, 'sessions.db');
  let store = openStore(db);
  const s = store.createSession({ title: 'large outputs' });
  record(s, 40);
  await store.flush();
  const envelopes = s.envelopes();
  const json = envelopes.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)), 0);
  store.close();

  // The file, its write-ahead log checkpointed at close, holds 40 outputs of 30 KB; stored
  // plain (escaped to ASCII) they take more than their JSON.
  const size = fs.statSync(db).size + (fs.existsSync(`${db}-wal`) ? fs.statSync(`${db}-wal`).size : 0);
  assert.ok(size < 0.8 * json, `the store takes ${size} bytes for ${json} bytes of JSON`);

  store = openStore(db);
  t.after(() => store.close());
  const again = store.openSession(s.id);
  assert.deepEqual(again.envelopes(), envelopes);
  assert.deepEqual(await again.envelopesAsync(), envelopes);
  assert.deepEqual(again.tail(3), envelopes.slice(-3));
  assert.equal(again.messages()[2].content[0].content, output(30000, 'marker0x', 3));

  const hits = store.search('marker17x', { highlight: ['[', ']'] });
  assert.equal(hits.length, 1);
  assert.equal(hits[0].messageUuid, envelopes.find((e) => JSON.stringify(e).includes('marker17x')).uuid);
  assert.match(hits[0].snippet, /\[marker17x\]/);

  const exported = (await store.export(s.id, { format: 'jsonl' })).trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.deepEqual(exported, envelopes);

  const fork = await again.fork(envelopes[20].uuid);
  const forked = fork.envelopes();
  assert.equal(forked.length, 21);
  for (const [i, e] of forked.entries()) {
    assert.equal(e.sessionId, fork.id);
    assert.deepEqual(e.message, envelopes[i].message);
  }
  fork.close();
});
