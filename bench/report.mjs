// report.mjs prints the one table of `make bench`: sessionkeep's figures from the run of
// ../shared/bench (results.json) and from ours.mjs (ours.json), beside the baselines, with
// the ratios the speed issue sets as targets. Ratios compare cells of the same run only.
//
//   node bench/report.mjs --data DIR
import fs from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
const i = argv.indexOf('--data');
const data = path.resolve(i >= 0 ? argv[i + 1] : 'build/bench-data');
const results = JSON.parse(fs.readFileSync(path.join(data, 'results.json'), 'utf8')).results;
const ours = JSON.parse(fs.readFileSync(path.join(data, 'ours.json'), 'utf8'));

const cell = (w, store, variant, size) => results.find((r) => r.w === w && r.store === store && r.variant === variant && (size === undefined || r.size === size))?.median;
const fmt = (x, unit) => (x === undefined ? '-' : `${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)} ${unit}`);
const rows = [];
/** row adds a line: what, ours, against what, the ratio or value checked, and the target. */
function row(what, value, unit, against, againstValue, limit, { ratio = true } = {}) {
  const r = ratio ? value / againstValue : value;
  const ok = value !== undefined && (!ratio || againstValue !== undefined) && r <= limit;
  rows.push([what, fmt(value, unit), against ? `${against}: ${fmt(againstValue, unit)}` : '', ratio ? `${r.toFixed(2)}×` : fmt(value, unit),
    ratio ? `≤ ${limit}×` : `≤ ${limit} ${unit}`, ok ? 'met' : `missed by ${ratio ? ((r / limit - 1) * 100).toFixed(0) + '%' : fmt(value - limit, unit)}`]);
}

const w1 = cell('W1', 'sessionkeep', 'ingest');
row('W1 ingest 500 turns, until durable', w1, 'ms', 'jsonl', cell('W1', 'jsonl', 'ingest'), 0.8);
row('W1 ingest 500 turns, until durable', w1, 'ms', 'better-sqlite3', cell('W1', 'sqlite', 'ingest'), 0.4);
for (const [size, label] of [['small', '2,000'], ['big', '20,000']]) {
  row(`W2 restore ${label} messages (async, parts)`, cell('W2', 'sessionkeep', 'restore', size), 'ms', 'JSON.parse floor', cell('W2', 'floor', 'parse', size), 1.5);
}
row('W3 last 20 of 20,000 messages', cell('W3', 'sessionkeep', 'tail'), 'ms', 'better-sqlite3', cell('W3', 'sqlite', 'tail'), 1, { ratio: false });
row('W4 list 1,000 sessions', cell('W4', 'sessionkeep', 'list'), 'ms', 'better-sqlite3', cell('W4', 'sqlite', 'list'), 2, { ratio: false });
row(`ingest, JS thread: median chunk of W1 (${ours.perChunk.chunks} chunks, adapter included)`, ours.perChunk.p50, 'µs', '', undefined, 1, { ratio: false });
rows.push(['  … 90th / 99th percentile chunk', `${fmt(ours.perChunk.p90, 'µs')} / ${fmt(ours.perChunk.p99, 'µs')}`, '', '', '', '']);
row('ingest, JS thread: a text delta', ours.ingest.textDelta, 'µs', '', undefined, 1, { ratio: false });
rows.push(['ingest, JS thread: a whole tool_use', fmt(ours.ingest.toolUse, 'µs'), '', '', '', '']);
rows.push([`ingest, JS thread: a tool_result chunk (${(ours.ingest.toolResultBytes / 1000).toFixed(1)} KB avg)`, fmt(ours.ingest.toolResult, 'µs'), '', '', '', '']);
rows.push(['appendUserMessage of one tool_result (same outputs)', fmt(ours.ingest.toolResultMessage, 'µs'), '', '', '', '']);
row('event-loop delay p99 while ingesting W1 (streamed)', ours.w1.p99, 'ms', '', undefined, 5, { ratio: false });
row('event-loop delay p99 during async restore of 20,000 msgs', ours.restore.p99, 'ms', '', undefined, 5, { ratio: false });
row('addon load (require)', ours.load.load, 'ms', '', undefined, 10, { ratio: false });
row('resident memory over bare Node, store open', (ours.load.rss - ours.bare.rss) / 1e6, 'MB', '', undefined, 15, { ratio: false });

const head = ['measure', 'sessionkeep', 'compared with', 'ratio / value', 'target', ''];
const table = [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
console.log(`\n# sessionkeep against the targets (medians; one run of make bench)\n\n${table}\n`);

// PostgreSQL on loopback beside the SQLite file: the same cells of the same run, and the
// throughput of 8 writer processes (bench/writers.mjs). No target: the figures say what a
// network round trip per commit costs.
const pgRows = [
  ['W1 ingest 500 turns, until durable', cell('W1', 'sessionkeep', 'ingest'), cell('W1', 'sessionkeep-pg', 'ingest')],
  ['W2 restore 2,000 messages', cell('W2', 'sessionkeep', 'restore', 'small'), cell('W2', 'sessionkeep-pg', 'restore', 'small')],
  ['W2 restore 20,000 messages', cell('W2', 'sessionkeep', 'restore', 'big'), cell('W2', 'sessionkeep-pg', 'restore', 'big')],
  ['W3 last 20 of 20,000 messages', cell('W3', 'sessionkeep', 'tail'), cell('W3', 'sessionkeep-pg', 'tail')],
  ['W4 list 1,000 sessions', cell('W4', 'sessionkeep', 'list'), cell('W4', 'sessionkeep-pg', 'list')],
].map(([what, sqlite, pg]) => [what, fmt(sqlite, 'ms'), fmt(pg, 'ms'), sqlite && pg ? `${(pg / sqlite).toFixed(2)}×` : '-']);
const writersFile = path.join(data, 'writers.json');
if (fs.existsSync(writersFile)) {
  const w = Object.fromEntries(JSON.parse(fs.readFileSync(writersFile, 'utf8')).map((r) => [r.label, r]));
  const perSec = (r) => r && `${(r.turns * 4 / r.seconds).toFixed(0)} msgs/s (flush p50 ${r.medianFlushMs.toFixed(1)} ms, p99 ${r.p99FlushMs.toFixed(1)} ms)`;
  const n = (w.postgres ?? w.sqlite)?.writers;
  pgRows.push([`${n} writer processes, durable per turn`, perSec(w.sqlite) ?? '-', perSec(w.postgres) ?? '-',
    w.sqlite && w.postgres ? `${(w.postgres.turns / w.sqlite.turns).toFixed(2)}× the throughput` : '-']);
}
const pgHead = ['measure', 'SQLite file', 'PostgreSQL (loopback)', 'PostgreSQL / SQLite'];
const pgTable = [pgHead, pgHead.map(() => '---'), ...pgRows].map((r) => `| ${r.join(' | ')} |`).join('\n');
console.log(`# the same store on PostgreSQL (medians; the same run)\n\n${pgTable}\n`);
console.log(`event-loop delay max: W1 ${fmt(ours.w1.max, 'ms')}, async restore ${fmt(ours.restore.max, 'ms')} (wall ${fmt(ours.restore.wall, 'ms')})`);
fs.writeFileSync(path.join(data, 'report.md'), `${table}\n\n${pgTable}\n`);
