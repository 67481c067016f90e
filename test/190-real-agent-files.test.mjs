// Importing the real public files of other agents listed in test/real-files.json (other
// people's work, so not in the repository): each one whose copy is found under
// $SESSIONKEEP_REAL_FILES (default ~/.cache/sessionkeep-real-files) as <repo>/<path> is
// imported through the addon and checked against what the file itself holds, so the
// checks hold for a prefix of a file too. A file without a copy is skipped, saying where
// to put it. test/162 writes each format as the agents write it on every run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempStore, tempDir } from './helpers/common.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(fs.readFileSync(path.join(HERE, 'real-files.json'), 'utf8'));
const copies = process.env.SESSIONKEEP_REAL_FILES || path.join(os.homedir(), '.cache', 'sessionkeep-real-files');

/** textsOf returns every text a session holds: its messages' text blocks and its other records' source text. */
function textsOf(store, id) {
  const session = store.openSession(id);
  const texts = session.messages().flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text));
  return texts.concat(session.envelopes().map((e) => e.source.text).filter(Boolean));
}

/** checkAider: one session a run, no line lost, a usage for each reported request. */
async function checkAider(store, copy) {
  const text = fs.readFileSync(copy, 'utf8');
  const result = await store.import(copy, { format: 'aider' });
  assert.deepEqual(result.skipped, []);
  const runs = text.split('\n').filter((l) => l.startsWith('# aider chat started at')).length;
  assert.equal(result.sessions.length, runs, 'one session a run');
  const held = result.sessions.flatMap((id) => textsOf(store, id)).join('\n');
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^(####|>) ?/, '').replace(/ {2}$/, '').trim();
    if (line === '' || raw.startsWith('# aider chat started at')) continue;
    assert.ok(held.includes(line), `the line ${JSON.stringify(raw)} is in the imported sessions`);
  }
  const answers = result.sessions.flatMap((id) => store.openSession(id).messages().filter((m) => m.role === 'assistant'));
  const reported = text.split('\n').filter((l) => /^> Tokens: .* sent, .* received/.test(l)).length;
  assert.equal(answers.filter((m) => m.usage && m.usage.input_tokens > 0).length, reported, 'each "> Tokens:" line is the usage of its answer');
  return result;
}

/** checkGemini: the session of the document, each tool call with its result. */
async function checkGemini(store, copy) {
  const doc = JSON.parse(fs.readFileSync(copy, 'utf8'));
  const result = await store.import(copy, { format: 'gemini' });
  assert.deepEqual(result.skipped, []);
  assert.deepEqual(result.sessions, [doc.sessionId]);
  const messages = store.openSession(doc.sessionId).messages();
  const uses = messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_use').map((b) => b.id));
  const results = messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
  const calls = doc.messages.flatMap((m) => m.toolCalls ?? []);
  assert.deepEqual(uses, calls.map((c) => c.id), 'every tool call, in order');
  assert.deepEqual(results, calls.filter((c) => c.result).map((c) => c.id), 'every result, in order');
  const models = doc.messages.map((m) => m.model).filter(Boolean);
  assert.equal(store.listSessions().find((s) => s.id === doc.sessionId).model, models.at(-1) ?? null);
  return result;
}

/** storageObjects reads the indented JSON objects of a dump one after another; an object cut off at its end is left out. */
function storageObjects(text) {
  const objects = [];
  let depth = 0, start = -1, inString = false, escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' && depth++ === 0) start = i;
    else if (c === '}' && --depth === 0) objects.push(JSON.parse(text.slice(start, i + 1)));
  }
  return objects;
}

/**
 * checkOpenCodeObjects writes each object of a dump of OpenCode's storage where OpenCode
 * keeps it (storage/message/<session>/<message>.json, storage/part/<message>/<part>.json),
 * with a session file for each session the messages name (from the dump's session object
 * when it has one, else made from the project object: the dump holds no other), then
 * imports the folder: every message with its tool calls and results, the usage of each
 * step, the parts' metadata kept.
 */
async function checkOpenCodeObjects(store, copy, t) {
  const objects = storageObjects(fs.readFileSync(copy, 'utf8'));
  const project = objects.find((o) => o.worktree);
  const root = path.join(tempDir(t), 'opencode', 'storage');
  const write = (file, value) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(value, null, 2));
  };
  const messages = objects.filter((o) => o.role && o.sessionID);
  const parts = objects.filter((o) => o.messageID && o.type && messages.some((m) => m.id === o.messageID));
  for (const m of messages) write(path.join(root, 'message', m.sessionID, `${m.id}.json`), m);
  for (const p of parts) write(path.join(root, 'part', p.messageID, `${p.id}.json`), p);
  const sessions = [...new Set(messages.map((m) => m.sessionID))];
  for (const id of sessions) {
    const info = objects.find((o) => o.id === id) ?? { id, projectID: project.id, directory: project.worktree, time: project.time };
    write(path.join(root, 'session', info.projectID, `${id}.json`), info);
  }
  const result = await store.import(path.dirname(root), { format: 'opencode' });
  assert.deepEqual(result.skipped, []);
  assert.deepEqual(result.sessions.sort(), sessions.sort());

  const imported = sessions.flatMap((id) => store.openSession(id).messages());
  const results = new Map(imported.flatMap((m) => m.content.filter((b) => b.type === 'tool_result').map((b) => [b.tool_use_id, b])));
  for (const p of parts.filter((p) => p.type === 'tool' && ['completed', 'error'].includes(p.state?.status))) {
    assert.ok(results.has(p.callID), `the result of ${p.callID}`);
    assert.equal(results.get(p.callID).is_error === true, p.state.status === 'error');
  }
  const stepInput = parts.filter((p) => p.type === 'step-finish').reduce((n, p) => n + p.tokens.input, 0);
  assert.equal(imported.reduce((n, m) => n + (m.usage?.input_tokens ?? 0), 0), stepInput, 'the usage of every step');
  const kept = sessions.flatMap((id) => store.openSession(id).envelopes()).map((e) => JSON.stringify(e.source.partMetadata ?? {})).join('');
  for (const p of parts.filter((p) => p.metadata?.openai?.reasoningEncryptedContent)) {
    assert.ok(kept.includes(p.metadata.openai.reasoningEncryptedContent), `the encrypted reasoning of ${p.id}`);
  }
  return result;
}

const checks = { aider: checkAider, gemini: checkGemini, 'opencode-objects': checkOpenCodeObjects };

for (const file of manifest.files) {
  const copy = path.join(copies, file.repo, file.path);
  test(`${file.format}: ${file.repo} ${file.path} imports with nothing lost`, async (t) => {
    if (!fs.existsSync(copy)) {
      t.skip(`no copy at ${copy} (fetch it from ${file.repo} at ${file.commit})`);
      return;
    }
    const { store } = tempStore(t);
    const first = await checks[file.format](store, copy, t);
    assert.ok(first.records > 0);
    const again = await checks[file.format](store, copy, t);
    assert.equal(again.records, 0, 'importing again adds nothing');
  });
}
