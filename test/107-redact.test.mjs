// Secrets redaction (openStore(path, { redact })): secrets in tool inputs and outputs never
// reach the SQLite file (its bytes, WAL included, are searched), everything else is stored
// as it came, the listing counts the redactions, and without the option nothing changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, SessionError, sleep, tempDir, ON_POSTGRES } from './helpers/common.mjs';

// Made-up secrets in the providers' formats.
const SECRETS = {
  anthropic_key: 'sk-ant-api03-Zq8vR2mXk4Lp7Tn1Yb6Wc3Hd9Fg5Js0Ke-_AbCdEfGh',
  openai_key: 'sk-proj-Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb',
  aws_access_key: 'AKIAZ7QW3ER5TY7UI9OP',
  github_token: 'ghp_Zx9Cv8Bn7Mq6Wl5Ek4Rj3Th2Yg1Uf0IdOsPa',
  private_key: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----',
  env_secret: 'correct-horse-battery-staple-7731',
};
const NOT_SECRET = 'the build passed in 4.2s: task-ant-1, sk-short, PORT=8080';

/**
 * fileChecks runs checks of the database file's bytes: on SQLite only (PostgreSQL's files are
 * the server's); what the store hands back is checked on both.
 */
const fileChecks = (check) => { if (!ON_POSTGRES) check(); };

/** dbBytes returns the bytes of the database and its WAL, as a latin1 string to search. */
function dbBytes(db) {
  return [db, `${db}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f).toString('latin1')).join('');
}

/**
 * record streams a tool call and its result, each carrying secrets, through one session;
 * midStream is called while the tool call has come half way, its checkpoint flushed.
 */
async function record(store, midStream) {
  const s = store.createSession({ projectPath: '/app' });
  s.appendUserMessage('deploy it');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'text', text: NOT_SECRET });
  s.ingest({ type: 'tool_use_start', id: 't1', name: 'Bash' });
  // The key arrives cut in two deltas, with time for a checkpoint (every 50 ms) between
  // them: none may hold the first half, which no pattern can tell from other text.
  const cmd = JSON.stringify({ command: `curl -H "x-api-key: ${SECRETS.anthropic_key}" https://api/v1` });
  const cut = cmd.indexOf('Zq8v') + 4;
  s.ingest({ type: 'tool_use_delta', partialJson: cmd.slice(0, cut) });
  await sleep(150);
  await store.flush();
  midStream();
  s.ingest({ type: 'tool_use_delta', partialJson: cmd.slice(cut) });
  s.ingest({ type: 'tool_use', id: 't2', name: 'Read', input: { path: '.env', note: NOT_SECRET } });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  s.ingest({ type: 'tool_result', toolUseId: 't1', content: `ok ${SECRETS.openai_key}`, raw: { stdout: `aws ${SECRETS.aws_access_key}`, exitCode: 0 } });
  s.ingest({ type: 'tool_result', toolUseId: 't2', content: [{ type: 'text', text: `DB_PASSWORD=${SECRETS.env_secret}\nPORT=8080\n${SECRETS.private_key}\n${NOT_SECRET}` }] });
  s.appendUserMessage([{ type: 'tool_result', tool_use_id: 't2', content: `token ${SECRETS.github_token}` }]);
  return s;
}

test('with redact: true no secret reaches the file, and the listing counts them', async (t) => {
  const db = path.join(tempDir(t), 'redacted.db');
  const store = openStore(db, { redact: true });
  const s = await record(store, () => fileChecks(() => assert.ok(!dbBytes(db).includes('sk-ant-api03-Zq8v'), 'a checkpoint holds half of the streamed key')));
  await store.flush();
  const blocks = s.messages().flatMap((m) => m.content);
  const use = blocks.find((b) => b.id === 't1');
  assert.equal(use.input.command, 'curl -H "x-api-key: [REDACTED:anthropic_key]" https://api/v1');
  assert.deepEqual(blocks.find((b) => b.id === 't2').input, { path: '.env', note: NOT_SECRET }, 'non-secrets untouched');
  assert.equal(blocks.find((b) => b.tool_use_id === 't1').content, 'ok [REDACTED:openai_key]');
  assert.equal(blocks.find((b) => b.tool_use_id === 't2').content[0].text,
    `DB_PASSWORD=[REDACTED:env_secret]\nPORT=8080\n[REDACTED:private_key]\n${NOT_SECRET}`);
  assert.equal(blocks.find((b) => b.type === 'text' && b.text === NOT_SECRET)?.text, NOT_SECRET);
  const env = s.envelopes().find((e) => e.toolUseResults?.t1);
  assert.deepEqual(env.toolUseResults.t1, { stdout: 'aws [REDACTED:aws_access_key]', exitCode: 0 });
  assert.equal(store.listSessions()[0].redactions, 6);
  assert.equal(store.sessionInfo(s.id).redactions, 6);
  store.close();

  fileChecks(() => {
    const bytes = dbBytes(db);
    for (const [kind, secret] of Object.entries(SECRETS)) {
      assert.ok(!bytes.includes(secret.slice(0, 24)), `${kind} is in the database file`);
    }
    assert.ok(bytes.includes('[REDACTED:github_token]'));
  });
  const again = openStore(db);
  t.after(() => again.close());
  assert.equal(again.listSessions()[0].redactions, 6, 'the count is stored');
});

test('by default every byte is stored as it came', async (t) => {
  const db = path.join(tempDir(t), 'verbatim.db');
  const store = openStore(db);
  const s = await record(store, () => fileChecks(() => assert.ok(dbBytes(db).includes('sk-ant-api03-Zq8v'), 'the partial tool call was checkpointed')));
  const blocks = s.messages().flatMap((m) => m.content);
  assert.ok(blocks.find((b) => b.id === 't1').input.command.includes(SECRETS.anthropic_key));
  assert.equal(store.listSessions()[0].redactions, undefined);
  store.close();
  fileChecks(() => {
    const bytes = dbBytes(db);
    for (const [kind, secret] of Object.entries(SECRETS)) {
      if (kind !== 'private_key') assert.ok(bytes.includes(secret), `${kind} was not stored verbatim`);
    }
    assert.ok(!bytes.includes('[REDACTED:'));
  });
});

test('caller patterns: a RegExp, a string found as it is, with or without the built-ins', async (t) => {
  const dir = tempDir(t);
  const store = openStore(path.join(dir, 'custom.db'), { redact: { patterns: [/acct-\d{6}/i, 'p@ss.w0rd(1)'], builtin: false } });
  t.after(() => store.close());
  const s = store.createSession();
  s.ingest({ type: 'tool_use', id: 't', name: 'Login', input: { user: 'ACCT-123456', password: 'p@ss.w0rd(1)', key: SECRETS.openai_key, other: 'pXss.w0rd(1)' } });
  assert.deepEqual(s.messages()[0].content[0].input,
    { user: '[REDACTED:custom]', password: '[REDACTED:custom]', key: SECRETS.openai_key, other: 'pXss.w0rd(1)' });

  const both = openStore(path.join(dir, 'both.db'), { redact: { patterns: ['zebra'] } });
  t.after(() => both.close());
  const b = both.createSession();
  b.ingest({ type: 'tool_use', id: 't', name: 'x', input: { a: 'zebra', k: SECRETS.openai_key } });
  assert.deepEqual(b.messages()[0].content[0].input, { a: '[REDACTED:custom]', k: '[REDACTED:openai_key]' });
});

test('restoreMessages and imports are redacted too', async (t) => {
  const dir = tempDir(t);
  const store = openStore(path.join(dir, 'r.db'), { redact: true });
  t.after(() => store.close());
  const s = store.createSession();
  s.restoreMessages([
    { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { cmd: `echo ${SECRETS.github_token}` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: SECRETS.github_token }] },
  ]);
  assert.equal(JSON.stringify(s.messages()).includes(SECRETS.github_token), false);

  const file = path.join(dir, '2f6d1c4e-5b7a-4c1e-9e3a-7d2b8f0a1c35.jsonl');
  const line = (o) => JSON.stringify({ sessionId: '2f6d1c4e-5b7a-4c1e-9e3a-7d2b8f0a1c35', timestamp: '2026-01-01T00:00:00.000Z', ...o });
  fs.writeFileSync(file, [
    line({ type: 'assistant', uuid: 'a1', message: { id: 'm', role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'Bash', input: { command: 'cat .env' } }] } }),
    line({ type: 'user', uuid: 'u1', parentUuid: 'a1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: `API_KEY=${SECRETS.env_secret}` }] },
      toolUseResult: { stdout: `API_KEY=${SECRETS.env_secret}`, stderr: '' } }),
  ].join('\n') + '\n');
  const { sessions } = await store.import(file);
  const imported = JSON.stringify(store.openSession(sessions[0]).envelopes());
  assert.ok(!imported.includes(SECRETS.env_secret), imported);
  assert.equal(store.sessionInfo(sessions[0]).redactions, 2);
});

test('bad redact options are a TypeError or INVALID_ARGUMENT, and open nothing', (t) => {
  const db = path.join(tempDir(t), 'bad.db');
  assert.throws(() => openStore(db, { redact: 'yes' }), TypeError);
  assert.throws(() => openStore(db, { redact: { patterns: [42] } }), TypeError);
  assert.throws(() => openStore(db, { redact: { patterns: [/(?<=a)b/] } }),
    (err) => err instanceof SessionError && err.code === 'INVALID_ARGUMENT' && /RE2/.test(err.message));
  assert.throws(() => openStore(db, { redact: { patterns: [/x*/] } }), (err) => err.code === 'INVALID_ARGUMENT');
  assert.throws(() => openStore(db, { redact: { patterns: [/x*/i] } }), (err) => err.code === 'INVALID_ARGUMENT');
  assert.equal(fs.existsSync(db), false);
});

test('appendUserMessage returns the message as stored: redacted, the same as envelopes() reads', (t) => {
  const store = openStore(path.join(tempDir(t), 'returned.db'), { redact: true });
  t.after(() => store.close());
  const s = store.createSession({ projectPath: '/app' });
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'env' } });
  s.ingest({ type: 'done', stop_reason: 'tool_use' });
  const returned = s.appendUserMessage([
    { type: 'tool_result', tool_use_id: 't1', content: `KEY=${SECRETS.anthropic_key}` },
    { type: 'text', text: NOT_SECRET },
  ]);
  assert.deepEqual(returned.message, s.envelopes().at(-1).message);
  assert.equal(returned.message.content[0].content, 'KEY=[REDACTED:anthropic_key]');
  const plain = s.appendUserMessage(NOT_SECRET);
  assert.deepEqual(plain.message, { role: 'user', content: [{ type: 'text', text: NOT_SECRET }] }, 'nothing to redact: as given');
});
