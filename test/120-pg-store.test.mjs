// A PostgreSQL store through the real addon: openStore('postgres://…'), the same messages
// and errors as SQLite, SESSIONKEEP_DB naming a server, and a store shared by processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, runNode, sessionError, tempStore } from './helpers/common.mjs';
import { freshPgURL, skipWithoutPG } from './helpers/pg.mjs';

/** record writes the same conversation into a store and returns the session. */
function record(store) {
  const s = store.createSession({ projectPath: '/work/api', title: 'Why 500?', model: 'claude-test' });
  s.appendUserMessage('Why does the login endpoint return 500? é☃ "quoted" \\ backslash');
  for (const chunk of [
    { type: 'message_start', id: 'msg_1', model: 'claude-test' },
    { type: 'thinking', thinking: 'Let me look.' },
    { type: 'signature', signature: 'c2ln' },
    { type: 'text', text: 'The JWT secret is unset.' },
    { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'src/auth.go' } },
    { type: 'done', stopReason: 'tool_use', usage: { input_tokens: 12, output_tokens: 7 } },
  ]) s.ingest(chunk);
  return s;
}

test('a postgres:// store keeps messages as SQLite does, byte for byte', { skip: skipWithoutPG }, async (t) => {
  const url = freshPgURL();
  const pg = openStore(url);
  t.after(() => pg.close());
  const { store: lite } = tempStore(t);
  const [a, b] = [record(pg), record(lite)];
  await Promise.all([pg.flush(), lite.flush()]);
  const strip = (text) => text.replace(/0[0-9a-f]{7}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME');
  assert.equal(JSON.stringify(a.messages()), JSON.stringify(b.messages()), 'the same messages as SQLite');

  const again = openStore(url.replace('postgres://', 'postgresql://'));
  t.after(() => again.close());
  assert.equal(JSON.stringify(again.openSession(a.id).envelopes()), JSON.stringify(a.envelopes()), 'another store reads the same bytes');
  assert.equal(strip(JSON.stringify(again.openSession(a.id).envelopes())), strip(JSON.stringify(b.envelopes())), 'envelopes as on SQLite');
  const [listed] = again.listSessions();
  assert.equal(listed.id, a.id);
  assert.equal(listed.title, 'Why 500?');
  assert.equal(listed.messageCount, 2);
  assert.deepEqual(again.search('JWT').map((h) => h.messageUuid), [a.envelopes()[1].uuid]);
  assert.throws(() => again.openSession('01a213df-0000-7000-8000-000000000000'), sessionError('SESSION_NOT_FOUND'));
});

test('SESSIONKEEP_DB names a server for a store opened without a path', { skip: skipWithoutPG }, async (t) => {
  const url = freshPgURL();
  const store = openStore(url);
  t.after(() => store.close());
  const s = store.createSession({ title: 'env' });
  s.appendUserMessage('from the parent');
  await store.flush();
  const script = `const sk = require(${JSON.stringify(new URL('../dist/index.js', import.meta.url).pathname)});
    const st = sk.openStore(); console.log(JSON.stringify([st.path, st.openSession(${JSON.stringify(s.id)}).messages()])); st.close();`;
  const { code, stdout, stderr } = await runNode('-e', [script], { env: { ...process.env, SESSIONKEEP_DB: url } });
  assert.equal(code, 0, stderr);
  const [path, messages] = JSON.parse(stdout);
  assert.equal(path, url);
  assert.equal(messages[0].content[0].text, 'from the parent');
});

test('a URL pgx cannot read, or a server not there, is a clear error', { skip: skipWithoutPG }, () => {
  assert.throws(() => openStore('postgres://u:hunter2@127.0.0.1:notaport/db'), (err) => {
    assert.equal(err.code, 'INVALID_ARGUMENT');
    assert.doesNotMatch(err.message, /hunter2/);
    return true;
  });
  assert.throws(() => openStore('postgres://sessionkeep@127.0.0.1:1/sessionkeep?connect_timeout=2'), sessionError('STORE_UNAVAILABLE'));
});
