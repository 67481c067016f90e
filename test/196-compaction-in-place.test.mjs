// sessionkeep's own compaction marked where it was made, in a real browser (Debian's
// chromium, headless): a session compacted after four turns and then continued shows the mark
// after the fourth answer and before the next prompt, on the viewer's session page and in
// `sessionkeep export --format html` opened offline.
// Skipped only when /usr/bin/chromium is missing (CI installs it: .ci/run).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openStore, runNode, storeLocation, tempStore } from './helpers/common.mjs';
import { CHROMIUM, launchBrowser, startServe } from './helpers/browser.mjs';
import { CLAUDE_CODE } from './helpers/transcripts.mjs';

const skip = fs.existsSync(CHROMIUM) ? false : `no ${CHROMIUM}: install Debian's chromium (apt-get install chromium) to run the browser tests`;
const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');

let dir;
let db;
let id;
let server;
let browser;

/** turn appends a prompt and its answer. */
function turn(s, prompt, answer) {
  s.appendUserMessage(prompt);
  s.ingest({ type: 'message_start', id: `msg_${answer.replace(/\W/g, '_')}`, model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: answer });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 10, output_tokens: 20 } });
}

before(async () => {
  if (skip) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-compaction-'));
  db = path.join(dir, 'sessions.db');
  const store = openStore(db);
  const s = store.createSession({ title: 'compacted midway', projectPath: '/work/compaction' });
  for (let i = 0; i < 4; i++) turn(s, `before ${i}`, `answer before ${i}`);
  const compacted = await s.compact({ summarize: async () => 'Four turns, in short.', keepRecentTurns: 1 });
  assert.equal(compacted.compacted, true, JSON.stringify(compacted));
  await new Promise((r) => setTimeout(r, 20)); // the next records are created after the compaction
  for (let i = 0; i < 2; i++) turn(s, `after ${i}`, `answer after ${i}`);
  await store.flush();
  id = s.id;
  store.close();
  server = await startServe(db);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** order lists the messages' texts and the compaction mark ('|') in the page's order. */
async function order(page) {
  await page.waitForSelector('[data-testid="sessionkeep-compaction"]');
  return page.$$eval('[data-testid="message"], [data-testid="sessionkeep-compaction"]', (els) =>
    els.map((el) => (el.dataset.testid === 'message' ? el.textContent.match(/(answer )?(before|after) \d/)?.[0] : '|')));
}

const WANT = ['before 0', 'answer before 0', 'before 1', 'answer before 1', 'before 2', 'answer before 2', 'before 3', 'answer before 3',
  '|', 'after 0', 'answer after 0', 'after 1', 'answer after 1'];

test('the viewer marks sessionkeep\'s compaction where it was made', { skip }, async () => {
  const page = await browser.newPage();
  await page.goto(server.url, { waitUntil: 'load' });
  await page.evaluate((sid) => { location.hash = `#/session/${sid}`; }, id);
  await page.waitForFunction(() => document.body.textContent.includes('answer after 1'));
  assert.deepEqual(await order(page), WANT);
  const mark = await page.$eval('[data-testid="sessionkeep-compaction"]', (el) => el.textContent);
  assert.match(mark, /Compacted by sessionkeep · manual/);
  assert.match(mark, /messages 1–6/, 'the summary stands for the turns before the one kept');
  await page.close();
});

test('export --format html marks it in the same place, offline', { skip }, async () => {
  const file = path.join(dir, 'compacted.html');
  const r = await runNode(BIN, ['export', id, '--format', 'html', '-o', file, '--db', storeLocation(db)]);
  assert.equal(r.code, 0, r.stderr);
  const page = await browser.newPage();
  await page.setOfflineMode(true);
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  assert.deepEqual(await order(page), WANT);
  await page.close();
});

test('export --all --format html writes every real session, also one with only a subagent\'s messages', async (t) => {
  const { store, db: realDb, dir: realDir } = tempStore(t);
  await store.import(CLAUDE_CODE, { format: 'claude-code' });
  await store.flush();
  const sessions = await store.listSessionsAsync({ includeArchived: true });
  const out = path.join(realDir, 'pages');
  const r = await runNode(BIN, ['export', '--all', '--format', 'html', '-o', out, '--db', storeLocation(realDb)]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(fs.readdirSync(out).sort(), sessions.map((s) => `${s.id}.html`).sort());
});
