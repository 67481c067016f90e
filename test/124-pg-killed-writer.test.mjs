// A writer SIGKILLed mid-reply on one host: its connection closes, its owner lock goes with
// it, and the next process to open the store, on any host, recovers the session as
// interrupted with what had streamed, and can go on writing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { helper, killAfterFirstLine, openStore } from './helpers/common.mjs';
import { freshPgURL, skipWithoutPG } from './helpers/pg.mjs';

test('a killed writer\'s session is recovered by the next process and resumed', { skip: skipWithoutPG }, async () => {
  const url = freshPgURL();
  const { id, signal } = await killAfterFirstLine(helper('pg-child.mjs'), ['stream', url]);
  assert.equal(signal, 'SIGKILL');
  // The server notices the closed connection at once on loopback; allow it a moment.
  let store;
  let recovered = [];
  for (let attempt = 0; attempt < 50 && recovered.length === 0; attempt++) {
    store?.close();
    store = openStore(url);
    recovered = store.recovered();
    if (recovered.length === 0) await new Promise((r) => setTimeout(r, 100));
  }
  try {
    assert.deepEqual(recovered, [{ id, projectPath: process.cwd(), title: 'killed mid-reply', interruptedMessages: 1 }]);
    const s = store.openSession(id);
    const envelopes = s.envelopes();
    assert.equal(envelopes.at(-1).status, 'interrupted');
    assert.equal(envelopes.at(-1).message.content[0].text, 'Once upon a ');
    s.appendUserMessage('go on');
    await store.flush();
    const next = openStore(url);
    assert.equal(next.openSession(id).messages().at(-1).content[0].text, 'go on');
    next.close();
  } finally {
    store.close();
  }
});
