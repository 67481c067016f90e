// report.mjs prints the tables of `make bench`: every target of the speed issue (16) with
// sessionkeep's figure, what it is compared with, and the ratio. Its sources, all in the data
// folder: the run of ../shared/bench (results.json), ours.mjs (ours.json) and, when
// speed-import's bench/import.mjs ran, import.json. Ratios compare cells of the same run only.
// A figure whose source is missing is printed "not measured".
//
//   node bench/report.mjs --data DIR
import fs from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
const i = argv.indexOf('--data');
const data = path.resolve(i >= 0 ? argv[i + 1] : 'build/bench-data');
const readJSON = (name) => {
  const file = path.join(data, name);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
};
const run = readJSON('results.json');
const results = run?.results ?? [];
const ours = readJSON('ours.json');
const imported = readJSON('import.json');

const find = (w, store, variant, size) => results.find((r) => r.w === w && r.store === store && (variant === undefined || r.variant === variant) && (size === undefined || r.size === size));
const cell = (...key) => find(...key)?.median;
// fastest is the best median of the baselines' whole restores (not the SELECT-only cell).
const fastest = (size) => Math.min(...results.filter((r) => r.w === 'W2' && r.size === size &&
  ((r.store === 'jsonl' && r.variant.startsWith('restore')) || (r.store === 'sqlite' && r.variant === 'restore'))).map((r) => r.median));
const fmt = (x, unit) => (x === undefined || !Number.isFinite(x) ? 'not measured' : `${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)} ${unit}`);
const MB = 1e6;

const rows = [];
/**
 * target adds a line: what is measured, our value, what it is compared with (name and
 * value; none for an absolute target), and the limit: a ratio (value / against) or, with no
 * against, a value in unit. atLeast turns the limit into a floor (import MB/s).
 */
function target(what, value, unit, against, againstValue, limit, { atLeast = false } = {}) {
  const ratio = against ? value / againstValue : value;
  const measured = Number.isFinite(ratio);
  const ok = measured && (atLeast ? ratio >= limit : ratio <= limit);
  const shown = !measured ? 'not measured' : against ? `${ratio.toFixed(2)}×` : fmt(value, unit);
  const limitText = `${atLeast ? '≥' : '≤'} ${limit}${against ? '×' : ` ${unit}`}`;
  const miss = atLeast ? (limit / ratio - 1) : (ratio / limit - 1);
  rows.push([what, fmt(value, unit), against ? `${against}: ${fmt(againstValue, unit)}` : '', shown, limitText,
    !measured ? '' : ok ? 'met' : `**missed** by ${(miss * 100).toFixed(0)} %`]);
}
const note = (what, value) => rows.push([what, value, '', '', '', '']);

const w1 = cell('W1', 'sessionkeep', 'ingest');
target('W1 ingest 500 turns, until durable', w1, 'ms', 'better-sqlite3', cell('W1', 'sqlite', 'ingest'), 0.8);
target('W1 ingest 500 turns, until durable', w1, 'ms', 'JSONL', cell('W1', 'jsonl', 'ingest'), 2);
target('  (compass goal: W1 against JSONL)', w1, 'ms', 'JSONL', cell('W1', 'jsonl', 'ingest'), 0.8);
for (const [size, label] of [['small', '2,000'], ['big', '20,000']]) {
  const restore = cell('W2', 'sessionkeep', 'restore', size);
  target(`W2 restore ${label} messages (async, parts)`, restore, 'ms', 'JSON.parse floor', cell('W2', 'floor', 'parse', size), 1.5);
  target(`W2 restore ${label} messages, against the faster baseline`, restore, 'ms', 'fastest of JSONL, better-sqlite3',
    fastest(size), 1);
}
target('W3 last 20 of 20,000 messages', cell('W3', 'sessionkeep', 'tail'), 'ms', 'better-sqlite3', cell('W3', 'sqlite', 'tail'), 1);
target('W4 list 1,000 sessions', cell('W4', 'sessionkeep', 'list'), 'ms', 'better-sqlite3', cell('W4', 'sqlite', 'list'), 1);
const w1Disk = find('W1', 'sessionkeep', 'ingest')?.disk;
target('store size after W1 (search index included)', w1Disk / MB, 'MB', 'the JSONL it holds', find('W1', 'jsonl', 'ingest')?.disk / MB, 1);
const sizes = run?.manifest?.sizes;
target('store size of the W2/W3 sessions', sizes?.sessionkeep?.w23 / MB, 'MB', 'the JSONL it holds', sizes?.jsonl?.w23 / MB, 1);
target('store size after importing the real transcripts', imported?.import?.storeBytes / MB, 'MB', 'the transcripts', imported?.bytes / MB, 1);
target('import of the real transcripts', imported?.import?.mbPerSecond, 'MB/s', '', undefined, 50, { atLeast: true });
if (imported) {
  note('  … bytes read / store after the import', `${fmt(imported.bytes / MB, 'MB')} / ${fmt(imported.import?.storeBytes / MB, 'MB')}`);
  // bench/import.mjs reports, besides the durable rate, the rate until searchable when it has it.
  if (imported.import?.searchableMbPerSecond !== undefined) note('  … until searchable too', fmt(imported.import.searchableMbPerSecond, 'MB/s'));
}
target('event-loop delay p99 while ingesting W1 (streamed)', ours?.w1?.p99, 'ms', '', undefined, 5);
target('event-loop delay p99 during async restore of 20,000 msgs', ours?.restore?.p99, 'ms', '', undefined, 5);
if (ours?.restoreSmallYoung) {
  // the flag docs/api.md suggests to applications; the target row above is Node's defaults
  note(`  … the same, node ${ours.smallYoungFlag} (p99 / wall)`, `${fmt(ours.restoreSmallYoung.p99, 'ms')} / ${fmt(ours.restoreSmallYoung.wall, 'ms')}`);
}
const rss = imported?.memory?.packageOverBare ?? (ours ? ours.load.rss - ours.bare.rss : undefined);
target('resident memory over bare Node, store open', rss / MB, 'MB', '', undefined, 15);
// ours.mjs --against: the same delays and memory of another checkout, measured in turn.
const vs = ours?.against;
if (vs) {
  const pair = (f) => `${fmt(f(vs.ours), 'ms')} against ${fmt(f(vs.theirs), 'ms')}`;
  note(`  event-loop p99, this checkout and ${vs.root} in turn: W1`, pair((x) => x.w1.p99));
  note('  … async restore of 20,000 msgs', pair((x) => x.restore.p99));
}
if (ours) {
  note(`ingest, JS thread: median chunk of W1 (${ours.perChunk.chunks} chunks, adapter included)`, fmt(ours.perChunk.p50, 'µs'));
  note('  … 90th / 99th percentile chunk', `${fmt(ours.perChunk.p90, 'µs')} / ${fmt(ours.perChunk.p99, 'µs')}`);
  note('ingest, JS thread: a text delta', fmt(ours.ingest.textDelta, 'µs'));
  note('addon load (require)', fmt(ours.load.load, 'ms'));
  if (ours.fixed) {
    note('fixed cost of a read: empty listing / tail(0), whole path', `${fmt(ours.fixed.emptyList * 1000, 'µs')} / ${fmt(ours.fixed.tail0 * 1000, 'µs')}`);
  }
}

const head = ['measure', 'sessionkeep', 'compared with', 'ratio / value', 'target', ''];
const table = [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
const load = run?.env?.load ? ` (load average at the start: ${run.env.load})` : '';
console.log(`\n# sessionkeep against the targets of the speed issue (medians; one run of make bench${load})\n\n${table}\n`);

// PostgreSQL on loopback beside the SQLite file: the same cells of the same run, the
// throughput of 8 writer processes (bench/writers.mjs) and the W2/W3 sessions' size
// (bench/pg-size.mjs), against issue 30's targets: W1 ≤ 2×, W2 ≤ 1.5×, W3 ≤ 2×, W4 ≤ 2×,
// 8 writers ≥ 1.5× the throughput with a lower flush p99, size ≤ 1.2× the SQLite file's.
const pgRows = [];
/** pgTarget adds a line: the SQLite file's figure, PostgreSQL's, their ratio and its limit. */
function pgTarget(what, sqlite, pg, unit, limit, { atLeast = false, also } = {}) {
  const ratio = pg / sqlite;
  const measured = Number.isFinite(ratio) && sqlite > 0;
  const ok = measured && (atLeast ? ratio >= limit : ratio <= limit) && (also?.ok ?? true);
  const miss = atLeast ? (limit / ratio - 1) : (ratio / limit - 1);
  const why = also && !also.ok ? `**missed**: ${also.why}` : `**missed** by ${(miss * 100).toFixed(0)} %`;
  pgRows.push([what, fmt(sqlite, unit), fmt(pg, unit), measured ? `${ratio.toFixed(2)}×` : 'not measured',
    `${atLeast ? '≥' : '≤'} ${limit}×${also ? ` ${also.text}` : ''}`, !measured ? '' : ok ? 'met' : why]);
}
pgTarget('W1 ingest 500 turns, until durable', cell('W1', 'sessionkeep', 'ingest'), cell('W1', 'sessionkeep-pg', 'ingest'), 'ms', 2);
pgTarget('W2 restore 2,000 messages', cell('W2', 'sessionkeep', 'restore', 'small'), cell('W2', 'sessionkeep-pg', 'restore', 'small'), 'ms', 1.5);
pgTarget('W2 restore 20,000 messages', cell('W2', 'sessionkeep', 'restore', 'big'), cell('W2', 'sessionkeep-pg', 'restore', 'big'), 'ms', 1.5);
pgTarget('W3 last 20 of 20,000 messages', cell('W3', 'sessionkeep', 'tail'), cell('W3', 'sessionkeep-pg', 'tail'), 'ms', 2);
pgTarget('W4 list 1,000 sessions', cell('W4', 'sessionkeep', 'list'), cell('W4', 'sessionkeep-pg', 'list'), 'ms', 2);
const writers = Object.fromEntries((readJSON('writers.json') ?? []).map((r) => [r.label, r]));
const perSec = (r) => r && (r.turns * 4) / r.seconds;
const [ws, wp] = [writers.sqlite, writers.postgres];
pgTarget(`${(wp ?? ws)?.writers ?? 8} writer processes, durable per turn (messages/s)`, perSec(ws), perSec(wp), 'msgs/s', 1.5, {
  atLeast: true,
  also: ws && wp && { ok: wp.p99FlushMs < ws.p99FlushMs, text: 'and a lower flush p99', why: `flush p99 ${fmt(wp.p99FlushMs, 'ms')} against ${fmt(ws.p99FlushMs, 'ms')}` },
});
if (ws && wp) {
  pgRows.push(['  … flush per turn p50 / p99', `${fmt(ws.medianFlushMs, 'ms')} / ${fmt(ws.p99FlushMs, 'ms')}`,
    `${fmt(wp.medianFlushMs, 'ms')} / ${fmt(wp.p99FlushMs, 'ms')}`, '', '', '']);
}
// Both stores indexed for search whole (pg-size.mjs searches each first): the harness's own
// figure for the SQLite file is of the run's end, its full-text index still mostly waiting.
const pgSize = readJSON('pg-size.json');
pgTarget('store size of the W2/W3 sessions, indexed for search', (pgSize?.sqliteW23 ?? sizes?.sessionkeep?.w23) / MB, pgSize?.w23 / MB, 'MB', 1.2);
if (pgSize?.tables) {
  pgRows.push(['  … PostgreSQL\'s largest tables: heap + TOAST + indexes', '', pgSize.tables.slice(0, 3)
    .map((t) => `${t.name} ${fmt(t.heap / MB, 'MB')} + ${fmt(t.toast / MB, 'MB')} + ${fmt(t.indexes / MB, 'MB')}`).join('; '), '', '', '']);
}
if (pgSize?.columns) {
  const c = pgSize.columns;
  pgRows.push(['  … columns as stored: message bodies / search text / search vectors / journaled blocks; the search index', '',
    `${fmt(c.body / MB, 'MB')} / ${fmt(c.searchText / MB, 'MB')} / ${fmt(c.vectors / MB, 'MB')} / ${fmt((c.journal ?? 0) / MB, 'MB')}; `
    + `${c.searchIndex === undefined ? 'not measured' : fmt(c.searchIndex / MB, 'MB')}`, '', '', '']);
}
const pgHead = ['measure', 'SQLite file', 'PostgreSQL (loopback)', 'PostgreSQL / SQLite', 'target', ''];
const pgTable = [pgHead, pgHead.map(() => '---'), ...pgRows].map((r) => `| ${r.join(' | ')} |`).join('\n');
console.log(`# the same store on PostgreSQL against issue 30's targets (medians; the same run)\n\n${pgTable}\n`);
if (ours) console.log(`event-loop delay max: W1 ${fmt(ours.w1.max, 'ms')}, async restore ${fmt(ours.restore.max, 'ms')} (wall ${fmt(ours.restore.wall, 'ms')})`);
fs.writeFileSync(path.join(data, 'report.md'), `${table}\n\n${pgTable}\n`);
