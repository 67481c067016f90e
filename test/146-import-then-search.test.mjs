// import() settles once what it wrote is committed, and indexing for search follows it in
// the background: through the real addon, a search made the moment the import settles finds
// every imported message, sync or async, and a store closed before indexing is done is
// indexed by the next search after reopening.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempDir } from './helpers/common.mjs';

const SESSIONS = 12;
const TURNS = 40;

/** writeTranscripts writes SESSIONS Claude Code transcripts into dir, each turn's prompt and
 * answer holding words found nowhere else (needle<session>x<turn>, answer<session>x<turn>). */
function writeTranscripts(dir) {
  const ids = [];
  for (let s = 0; s < SESSIONS; s++) {
    const sessionId = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    ids.push(sessionId);
    const lines = [];
    let parentUuid = null;
    for (let turn = 0; turn < TURNS; turn++) {
      for (const role of ['user', 'assistant']) {
        const uuid = `${String(s).padStart(8, '0')}-0000-4000-8000-${String(turn * 2 + (role === 'user' ? 0 : 1)).padStart(12, '0')}`;
        const text = role === 'user' ? `please find needle${s}x${turn} in the tree` : `found answer${s}x${turn} at the root`;
        const content = role === 'user' ? text : [{ type: 'text', text }];
        lines.push(JSON.stringify({
          type: role, uuid, parentUuid, sessionId, cwd: '/work/project', version: '2.0.0',
          timestamp: new Date(Date.UTC(2025, 0, 1, 0, s, turn)).toISOString(),
          message: { role, content },
        }));
        parentUuid = uuid;
      }
    }
    fs.writeFileSync(path.join(dir, `${sessionId}.jsonl`), lines.join('\n') + '\n');
  }
  return ids;
}

/** assertAllFound searches every needle and answer word and checks each is found once, in
 * its own session. */
async function assertAllFound(store, ids, search) {
  for (let s = 0; s < SESSIONS; s++) {
    for (let turn = 0; turn < TURNS; turn += 7) {
      for (const word of [`needle${s}x${turn}`, `answer${s}x${turn}`]) {
        const hits = await search(word);
        assert.equal(hits.length, 1, `${word}: ${hits.length} hits`);
        assert.equal(hits[0].sessionId, ids[s], word);
      }
    }
  }
}

test('a search the moment import() settles finds every imported message', async (t) => {
  const dir = tempDir(t);
  const source = path.join(dir, 'projects');
  fs.mkdirSync(source);
  const ids = writeTranscripts(source);
  const store = openStore(path.join(dir, 'sessions.db'));
  t.after(() => store.close());
  const result = await store.import(source);
  assert.equal(result.records, SESSIONS * TURNS * 2);
  const first = store.search('needle0x0');
  assert.equal(first.length, 1);
  await assertAllFound(store, ids, (word) => store.search(word));
  await assertAllFound(store, ids, (word) => store.searchAsync(word));
});

test('a store closed as the import settles is searchable after reopening', async (t) => {
  const dir = tempDir(t);
  const source = path.join(dir, 'projects');
  fs.mkdirSync(source);
  const ids = writeTranscripts(source);
  const db = path.join(dir, 'sessions.db');
  let store = openStore(db);
  await store.import(source);
  store.close(); // indexing may still be under way: it stops, and what is left stays queued
  store = openStore(db);
  t.after(() => store.close());
  await assertAllFound(store, ids, (word) => store.searchAsync(word));
  assert.equal(store.listSessions().length, SESSIONS);
});
