// The server stops mid-session: writes stay queued and flush() rejects STORE_UNAVAILABLE,
// reads say the same, and once the server is back everything queued is committed and
// nothing stored before is lost. The test runs a throwaway server of its own to stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, sessionError } from './helpers/common.mjs';
import { skipWithoutPG } from './helpers/pg.mjs';
import { startCluster } from './helpers/pg-cluster.mjs';

test('STORE_UNAVAILABLE while the server is down, nothing lost once it is back', { skip: skipWithoutPG, timeout: 120000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-pg-'));
  const cluster = startCluster(dir);
  const stores = [];
  t.after(() => {
    // Stores first (while the server runs, so they close cleanly), the server before its folder.
    for (const st of stores) st.close();
    cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const errors = [];
  const store = openStore(`${cluster.url}?connect_timeout=2`, { onError: (err) => errors.push(err.code) });
  stores.push(store);
  const s = store.createSession({ title: 'survives an outage' });
  s.appendUserMessage('before the outage');
  await store.flush();

  cluster.stop();
  s.appendUserMessage('during the outage'); // queued: the JS thread never waits on the network
  await assert.rejects(store.flush(), sessionError('STORE_UNAVAILABLE'));
  assert.throws(() => store.listSessions(), sessionError('STORE_UNAVAILABLE'));
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual([...new Set(errors)], ['STORE_UNAVAILABLE'], 'onError told once per run of failures');

  startCluster(cluster.dir); // the same data and port
  const deadline = Date.now() + 30000;
  for (;;) {
    try {
      await store.flush();
      break;
    } catch (err) {
      if (err.code !== 'STORE_UNAVAILABLE' || Date.now() > deadline) throw err;
    }
  }
  const again = openStore(cluster.url);
  stores.push(again);
  assert.deepEqual(again.openSession(s.id).messages().map((m) => m.content[0].text), ['before the outage', 'during the outage']);
});
