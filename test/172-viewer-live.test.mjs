// The viewer live, in a real browser (Debian's chromium, headless, puppeteer-core) against
// `sessionkeep serve` on a SQLite store: a message another process commits to the open session
// appears on its page within a second, and a session another process creates appears in the
// listing, through the server's event stream (GET /api/events, token required like every
// API route). Skipped only when /usr/bin/chromium is missing (CI installs it: .ci/run).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, runNodeJSON, storeLocation } from './helpers/common.mjs';
import { CHROMIUM, launchBrowser, request, startServe } from './helpers/browser.mjs';

const skip = fs.existsSync(CHROMIUM) ? false : `no ${CHROMIUM}: install Debian's chromium (apt-get install chromium) to run the browser tests`;
const INDEX = new URL('../dist/index.js', import.meta.url).pathname;

let dir;
let db;
let id;
let server;
let browser;
let page;

before(async () => {
  if (skip) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-live-'));
  db = path.join(dir, 'sessions.db');
  const store = openStore(db);
  const s = store.createSession({ title: 'followed in the browser', projectPath: '/work/live' });
  s.appendUserMessage('the first message');
  await store.flush();
  id = s.id;
  store.close();
  server = await startServe(db);
  browser = await launchBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(server.url, { waitUntil: 'load' });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** inAnotherProcess runs `body` (with `store` open) in a child node and resolves with when it committed. */
async function inAnotherProcess(body) {
  const script = `const sk = require(${JSON.stringify(INDEX)});
    const store = sk.openStore(${JSON.stringify(storeLocation(db))});
    (async () => { ${body}; await store.flush(); const committed = Date.now(); store.close();
      process.stdout.write(JSON.stringify({ committed })); })();`;
  return (await runNodeJSON('-e', [script])).committed;
}

/** waitForText waits until the page's text includes `text`, and resolves with when it did. */
async function waitForText(text, timeout) {
  await page.waitForFunction((t) => document.body.innerText.includes(t), { timeout, polling: 10 }, text);
  return Date.now();
}

test('a message another process commits appears on the open session page within a second', { skip }, async (t) => {
  await page.evaluate((r) => { location.hash = r; }, `#/session/${id}`);
  await waitForText('the first message', 10_000);
  await new Promise((r) => setTimeout(r, 300)); // the page's event stream is open
  const committed = await inAnotherProcess(`store.openSession(${JSON.stringify(id)}).appendUserMessage('written by another process')`);
  const shown = await waitForText('written by another process', 1000);
  const took = shown - committed;
  t.diagnostic(`shown ${took} ms after the commit`);
  assert.ok(took < 1000, `shown ${took} ms after the commit`);
  const count = await page.$$eval('[data-testid="message"]', (els) => els.length);
  assert.equal(count, 2, 'appended in place, the first message once');
});

test('a session another process creates appears in the listing', { skip }, async (t) => {
  await page.evaluate(() => { location.hash = "#/sessions"; });
  await waitForText('followed in the browser', 10_000);
  await new Promise((r) => setTimeout(r, 300));
  const committed = await inAnotherProcess(`const s = store.createSession({ title: 'created elsewhere', projectPath: '/work/live' }); s.appendUserMessage('hi')`);
  const shown = await waitForText('created elsewhere', 2000);
  t.diagnostic(`listed ${shown - committed} ms after the commit`);
  assert.ok(shown - committed < 2000, `listed ${shown - committed} ms after the commit`);
});

test('the event stream needs the token', { skip }, async () => {
  const r = await request(server.port, `/api/events?session=${id}`);
  assert.equal(r.status, 403);
});
