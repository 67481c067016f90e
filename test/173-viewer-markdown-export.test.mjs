// Pages worth reading and sharing, in a real browser (Debian's chromium, headless,
// puppeteer-core): assistant Markdown rendered and sanitized (a <script>, an onerror, a
// javascript: link in a message never run), code highlighted, the OS's dark mode followed,
// sessionkeep's own compactions marked; `sessionkeep export --format html` of a real imported
// session opens offline, makes no request and shows every message (its screenshot:
// docs/viewer-export.png when SESSIONKEEP_EXPORT_SCREENSHOT names it); --redact takes the
// built-in secrets out.
// Skipped only when /usr/bin/chromium is missing (CI installs it: .ci/run).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openStore, runNode, storeLocation } from './helpers/common.mjs';
import { CHROMIUM, launchBrowser, startServe } from './helpers/browser.mjs';
import { CLAUDE_CODE } from './helpers/transcripts.mjs';

const skip = fs.existsSync(CHROMIUM) ? false : `no ${CHROMIUM}: install Debian's chromium (apt-get install chromium) to run the browser tests`;
const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');
const SCREENSHOT_TO = process.env.SESSIONKEEP_EXPORT_SCREENSHOT;

/** The payloads of a hostile transcript: each would set window.__pwned if it ran. */
const HOSTILE = [
  'Here is **bold** and `code`, and the fix:',
  '```js\nconst answer = 42; // the answer\nfunction f() { return answer; }\n```',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  '[a link that runs](javascript:window.__pwned=\'link\')',
  '<a href="javascript:window.__pwned=\'raw link\'" id="raw">raw link</a>',
  '<iframe src="javascript:parent.__pwned=\'iframe\'"></iframe>',
  '<svg><script>window.__pwned = "svg"</script></svg>',
  'And a secret that must not be shared: sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789',
].join('\n\n');

let dir;
let db;
let hostile;
let real;
let server;
let browser;

before(async () => {
  if (skip) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-md-'));
  db = path.join(dir, 'sessions.db');
  const store = openStore(db);
  await store.import(CLAUDE_CODE, { format: 'claude-code' });
  const s = store.createSession({ title: 'hostile markdown', projectPath: '/work/md' });
  s.appendUserMessage('Show me <b>markdown</b>');
  s.ingest({ type: 'message_start', id: 'msg_1', model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: HOSTILE });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 10, output_tokens: 20 } });
  // sessionkeep's own compaction of the session, marked on its page.
  for (let i = 0; i < 4; i++) {
    s.appendUserMessage(`question ${i}`);
    s.ingest({ type: 'message_start', id: `msg_q${i}`, model: 'claude-sonnet-4-5' });
    s.ingest({ type: 'text', text: `answer ${i}` });
    s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 10, output_tokens: 20 } });
  }
  const compacted = await s.compact({ summarize: async () => 'What was said, in short.', keepRecentTurns: 1 });
  assert.equal(compacted.compacted, true, JSON.stringify(compacted));
  await store.flush();
  hostile = s.id;
  // The real session with the most messages on its main branch.
  let most = -1;
  for (const info of await store.listSessionsAsync({ includeArchived: true })) {
    if (info.id === hostile) continue;
    const envelopes = await store.openSession(info.id).envelopesAsync();
    if (envelopes.length > most) [most, real] = [envelopes.length, { id: info.id, envelopes }];
  }
  store.close();
  server = await startServe(db);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** exportHtml runs `sessionkeep export <id> --format html` and returns the file. */
async function exportHtml(id, ...extra) {
  const file = path.join(dir, `${id}${extra.length ? '-redacted' : ''}.html`);
  const r = await runNode(BIN, ['export', id, '--format', 'html', '-o', file, '--db', storeLocation(db), ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return file;
}

/** openOffline opens a file in a new offline page and records every request it makes. */
async function openOffline(file) {
  const page = await browser.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.setOfflineMode(true);
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, requests };
}

/** inert checks that none of HOSTILE's payloads ran or stayed in the rendered Markdown. */
async function assertInert(page) {
  await page.waitForSelector('[data-testid="markdown"] pre code');
  const found = await page.evaluate(() => {
    const md = [...document.querySelectorAll('[data-testid="markdown"]')].find((el) => el.textContent.includes('the fix'));
    const links = [...md.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    return {
      pwned: window.__pwned,
      scripts: md.querySelectorAll('script').length,
      frames: md.querySelectorAll('iframe, svg').length,
      handlers: [...md.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name)).filter((n) => n.startsWith('on')),
      links,
      bold: md.querySelector('strong')?.textContent,
      keyword: md.querySelector('pre code .hljs-keyword')?.textContent,
    };
  });
  assert.equal(found.pwned, undefined, 'no payload ran');
  assert.equal(found.scripts, 0);
  assert.equal(found.frames, 0);
  assert.deepEqual(found.handlers, []);
  assert.ok(found.links.every((href) => href === null || /^https?:|^mailto:|^#/.test(href)), JSON.stringify(found.links));
  assert.equal(found.bold, 'bold', 'Markdown is rendered');
  assert.equal(found.keyword, 'const', 'code is highlighted');
  // Clicking what is left of the links runs nothing either.
  await page.evaluate(() => document.querySelectorAll('[data-testid="markdown"] a').forEach((a) => a.click()));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no payload ran on a click');
}

test('the viewer renders Markdown with code highlighted, and a hostile transcript stays inert', { skip }, async () => {
  const page = await browser.newPage();
  await page.goto(server.url, { waitUntil: 'load' });
  await page.evaluate((id) => { location.hash = `#/session/${id}`; }, hostile);
  await assertInert(page);
  const user = await page.$eval('[data-role="user"] .text', (el) => el.innerHTML);
  assert.ok(user.includes('&lt;b&gt;'), 'a user message stays plain text');
  const mark = await page.$eval('[data-testid="sessionkeep-compaction"]', (el) => el.textContent);
  assert.match(mark, /Compacted by sessionkeep/, 'sessionkeep\'s own compaction is marked');
  assert.match(mark, /summary/);
  await page.close();
});

test('the viewer follows the OS dark mode', { skip }, async () => {
  const page = await browser.newPage();
  const background = async () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await page.goto(server.url, { waitUntil: 'load' });
  const light = await background();
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  const dark = await background();
  assert.notEqual(light, dark);
  const [r, g, b] = dark.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 150, `a dark background: ${dark}`);
  await page.close();
});

test('export --format html of a real session opens offline, makes no request and shows every message', { skip }, async () => {
  const file = await exportHtml(real.id);
  const { page, requests } = await openOffline(file);
  await page.waitForSelector('[data-testid="message"]');
  const shown = new Set(await page.$$eval('[data-uuid]', (els) => els.map((el) => el.dataset.uuid)));
  const withText = real.envelopes.filter((e) => !e.isSidechain && ['user', 'assistant'].includes(e.type)
    && Array.isArray(e.message?.content) && e.message.content.some((b) => b.type === 'text' && b.text.trim()));
  assert.ok(withText.length >= 5, `${withText.length} messages with text`);
  const missing = withText.filter((e) => !shown.has(e.uuid)).map((e) => e.uuid);
  assert.deepEqual(missing, [], 'every message with text is on the page');
  const title = await page.$eval('[data-testid="session-title"]', (el) => el.textContent);
  assert.ok(title.length > 0);
  assert.deepEqual(requests, [pathToFileURL(file).href], 'the page loads nothing but itself');
  if (SCREENSHOT_TO) {
    // From the first assistant reply rendered with a list or code, to show the rendering.
    await page.evaluate(() => [...document.querySelectorAll('[data-role="assistant"] [data-testid="markdown"]')]
      .find((el) => el.querySelector('ul, ol, pre, strong'))?.closest('article').scrollIntoView());
    await page.screenshot({ path: SCREENSHOT_TO, fullPage: false });
  }
  await page.close();
});

test('an exported hostile transcript stays inert offline; --redact takes its secret out', { skip }, async () => {
  const plain = await exportHtml(hostile);
  assert.ok(fs.readFileSync(plain, 'utf8').includes('sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789'), 'without --redact the page is as stored');
  const redacted = await exportHtml(hostile, '--redact');
  const html = fs.readFileSync(redacted, 'utf8');
  assert.ok(!html.includes('sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789'), 'the key is gone');
  assert.ok(html.includes('[REDACTED:anthropic_key]'));
  assert.equal((fs.statSync(redacted).mode & 0o777).toString(8), '600');
  const { page, requests } = await openOffline(redacted);
  await assertInert(page);
  assert.deepEqual(requests, [pathToFileURL(redacted).href]);
  await page.close();
});
