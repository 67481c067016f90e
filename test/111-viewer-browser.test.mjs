// The viewer in a real browser: Debian's chromium, headless, driven by puppeteer-core,
// against `sessionkeep serve` (the real CLI) on a store filled by importing
// ../shared/fixtures/real. The listing, a search with its hits marked, a session with images,
// one with subagents (their sidechains inside the call that ran them), a switch to another
// branch, the usage charts; each page's screenshot, written under the test's temporary
// folder, must not be blank; and a request without the token gets 403, from the page itself.
// Skipped only when /usr/bin/chromium is missing (make setup installs it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openStore } from './helpers/common.mjs';
import { CHROMIUM, FIXTURE, api, fillViewerStore, launchBrowser, startServe } from './helpers/browser.mjs';

const skip = fs.existsSync(CHROMIUM) ? false : `no ${CHROMIUM}: install Debian's chromium (apt-get install chromium) to run the browser tests`;

/** Set to a file name, the session page's screenshot is copied there (how docs/viewer-session.png is made). */
const SCREENSHOT_TO = process.env.SESSIONKEEP_VIEWER_SCREENSHOT;

let dir;
let made;
let server;
let browser;
let page;

before(async () => {
  if (skip) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-viewer-'));
  const db = path.join(dir, 'sessions.db');
  made = await fillViewerStore(db, dir);
  made.db = db;
  server = await startServe(db);
  browser = await launchBrowser();
  page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(server.url, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid="session-row"]');
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** show opens a hash route of the viewer and waits for `selector`. */
async function show(route, selector) {
  await page.evaluate((r) => { location.hash = r; }, route);
  return page.waitForSelector(selector);
}

/**
 * screenshot writes the page's screenshot under the test's folder and returns how many
 * distinct colours it holds, counted by decoding the PNG in a blank page of the browser: a
 * blank page has one.
 */
async function screenshot(name) {
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  const png = fs.readFileSync(file);
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], `${name}.png is a PNG`);
  const blank = await browser.newPage();
  try {
    return { file, colours: await blank.evaluate(distinctColours, png.toString('base64')) };
  } finally {
    await blank.close();
  }
}

/** distinctColours runs in the browser: the number of distinct RGBA values of a PNG (base64). */
async function distinctColours(base64) {
  const img = new Image();
  img.src = `data:image/png;base64,${base64}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = new Uint32Array(ctx.getImageData(0, 0, canvas.width, canvas.height).data.buffer);
  return new Set(data).size;
}

/** canvasInk runs in the browser: how many pixels of the canvas are painted (not transparent). */
function canvasInk(canvas) {
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
  return painted;
}

test('the listing: every session row, the total, and the token gone from the address bar', { skip }, async () => {
  const listed = await api(server, '/api/sessions');
  const rows = await page.$$eval('[data-testid="session-row"]', (els) => els.map((e) => e.dataset.id));
  assert.deepEqual(rows, listed.sessions.map((s) => s.id));
  const total = await page.$eval('[data-testid="total"]', (e) => e.textContent);
  assert.match(total, new RegExp(`\\b${listed.total}\\b`));
  assert.ok(!page.url().includes('token='), `the address bar still holds the token: ${page.url()}`);
  assert.ok(await page.evaluate((token) => Object.values(sessionStorage).includes(token), server.token), 'the token is kept in sessionStorage');
  const shot = await screenshot('sessions');
  assert.ok(shot.colours > 10, `the listing's screenshot has ${shot.colours} colours`);
});

test('search: the hits of the store\'s full-text search, matches in <mark>', { skip }, async () => {
  await show('#/sessions', '[data-testid="search-input"]');
  await page.type('[data-testid="search-input"]', 'haiku');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="search-hit"] mark');
  const marks = await page.$$eval('[data-testid="search-hit"] mark', (els) => els.map((e) => e.textContent.toLowerCase()));
  assert.ok(marks.length >= 1 && marks.every((m) => m === 'haiku'), JSON.stringify(marks));
  const rows = await page.$$eval('[data-testid="session-row"]', (els) => els.map((e) => e.dataset.id));
  assert.ok(rows.includes(made.branched));
  const text = await page.$eval('[data-testid="search-hit"]', (e) => e.textContent);
  assert.ok(!/[\u0001\u0002]/.test(text), 'the snippet markers are turned into <mark>, not shown');
  const shot = await screenshot('search');
  assert.ok(shot.colours > 10);
});

test('a session with images shows them, decoded from the stored data', { skip }, async () => {
  const id = (await api(server, `/api/sessions/${FIXTURE.images}`)).info.id;
  await show(`#/session/${id}`, '[data-testid="image"]');
  const images = await page.$$eval('img[data-testid="image"]', async (els) => {
    await Promise.all(els.map((e) => e.decode().catch(() => {})));
    return els.map((e) => ({ src: e.src.slice(0, 22), width: e.naturalWidth }));
  });
  assert.ok(images.length >= 2, `${images.length} images`);
  for (const img of images) {
    assert.match(img.src, /^data:image\//);
    assert.ok(img.width > 0, 'the image decodes');
  }
  const title = await page.$eval('[data-testid="session-title"]', (e) => e.textContent);
  assert.match(title, /Friendly Robot Icon/);
});

test('a session with subagents: each sidechain inside the tool call that ran it; the context chart drawn', { skip }, async () => {
  const id = (await api(server, `/api/sessions/${FIXTURE.subagents}`)).info.id;
  await show(`#/session/${id}`, '[data-testid="tool-call"] [data-testid="sidechain"]');
  const nested = await page.$$eval('[data-testid="tool-call"] [data-testid="sidechain"]', (els) =>
    els.map((e) => ({ call: e.closest('[data-testid="tool-call"]').dataset.name, messages: e.querySelectorAll('[data-testid="message"]').length })));
  assert.ok(nested.length >= 3, `${nested.length} sidechains nested in calls`);
  assert.ok(nested.every((n) => n.messages >= 1), JSON.stringify(nested));
  const outside = await page.$$eval('[data-testid="sidechain"]', (els) => els.filter((e) => !e.closest('[data-testid="tool-call"]')).length);
  assert.equal(outside, 0, 'no sidechain outside a tool call');
  const chart = await page.waitForSelector('canvas[data-testid="context-chart"]');
  await page.waitForFunction((c) => c.width > 0, {}, chart);
  assert.ok(await chart.evaluate(canvasInk) > 100, 'the context chart is drawn');
  const shot = await screenshot('session-subagents');
  assert.ok(shot.colours > 10);
  if (SCREENSHOT_TO) fs.copyFileSync(shot.file, SCREENSHOT_TO);
});

test('the branch tree switches to another branch, and the store\'s head stays where it was', { skip }, async () => {
  await show(`#/session/${made.branched}`, '[data-testid="branch-tree"]');
  await page.waitForFunction(() => document.body.textContent.includes('Spring rain falls softly'));
  const nodes = await page.$$eval('[data-testid="branch-node"]', (els) => els.map((e) => e.dataset.uuid));
  assert.ok(nodes.includes(made.firstAnswer), `branch nodes ${JSON.stringify(nodes)}`);
  await page.click(`[data-testid="branch-node"][data-uuid="${made.firstAnswer}"]`);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="message"]')].some((m) => m.textContent.includes('Autumn moon rises')));
  const shown = await page.$$eval('[data-testid="message"]', (els) => els.map((e) => e.dataset.uuid));
  assert.deepEqual(shown, [made.prompt, made.firstAnswer]);
  const shot = await screenshot('branch');
  assert.ok(shot.colours > 10);
  const store = openStore(made.db);
  try {
    assert.equal(store.openSession(made.branched).tree().head, made.secondAnswer);
  } finally {
    store.close();
  }
});

test('usage: tokens by day, model and project as drawn charts', { skip }, async () => {
  await show('#/usage', '[data-testid="usage-by-day"] canvas');
  assert.ok(await page.$$eval('[data-testid="usage-blocks"] tbody tr', (rows) => rows.length) > 0, 'usage by 5-hour window is listed');
  for (const id of ['usage-by-day', 'usage-by-model', 'usage-by-project']) {
    const canvas = await page.waitForSelector(`[data-testid="${id}"] canvas`);
    await page.waitForFunction((c) => {
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
      return false;
    }, {}, canvas);
    assert.ok(await canvas.evaluate(canvasInk) > 100, `${id} is drawn`);
  }
  const shot = await screenshot('usage');
  assert.ok(shot.colours > 10);
});

test('a request without the token gets 403, and another origin cannot read the API even with it', { skip }, async () => {
  const fromPage = await page.evaluate(async () => {
    const without = await fetch('/api/sessions');
    return { status: without.status, body: await without.json() };
  });
  assert.equal(fromPage.status, 403);
  assert.equal(fromPage.body.error.code, 'FORBIDDEN');

  // another site's page on this machine, holding the token: CORS stops it at the preflight
  const other = http.createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end('<p>other</p>'); });
  await new Promise((r) => other.listen(0, '127.0.0.1', r));
  const tab = await browser.newPage();
  try {
    await tab.goto(`http://127.0.0.1:${other.address().port}/`);
    const result = await tab.evaluate(async (base, token) => {
      try {
        const r = await fetch(`${base}/api/sessions`, { headers: { Authorization: `Bearer ${token}` } });
        return `read ${r.status}`;
      } catch (err) {
        return `refused: ${err.name}`;
      }
    }, server.base, server.token);
    assert.equal(result, 'refused: TypeError');
  } finally {
    await tab.close();
    other.close();
  }
});
