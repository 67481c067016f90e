// big-transcript.mjs writes a large transcript from a real one's shape, on the fly: the
// source's records repeated, each repetition with fresh ids (every uuid but the session's,
// message ids, tool call ids), until the file holds --mb megabytes. The result is a file of
// the size users report (Claude Code transcripts up to 2.5 GB, Codex rollouts past 30 GB),
// never committed. node bench/big-transcript.mjs --from <file.jsonl> --out <file> --mb 400
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { from: { type: 'string' }, out: { type: 'string' }, mb: { type: 'string' } } });
if (!values.from || !values.out || !values.mb) {
  console.error('usage: node bench/big-transcript.mjs --from <file.jsonl> --out <file> --mb <megabytes>');
  process.exit(2);
}
const lines = fs.readFileSync(values.from, 'utf8').split('\n').filter((l) => l.trim() !== '');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
// The session's own id stays: the file is one session however long it grows. Claude Code
// names it sessionId; a Codex rollout's first record's payload.id.
const first = JSON.parse(lines[0]);
const keep = new Set([first.sessionId, first.payload?.id, ...lines.map((l) => JSON.parse(l).sessionId)].filter(Boolean));
const target = Number(values.mb) * 1024 * 1024;

// fresh gives every id of a line its repetition's own value, the same across lines.
function fresh(line, rep) {
  const tag = rep.toString(16).padStart(12, '0');
  return line
    .replace(UUID, (u) => (keep.has(u) ? u : `${u.slice(0, 24)}${tag}`))
    .replace(/"(msg_|toolu_|call_|req_)([A-Za-z0-9]+)"/g, (_, prefix, id) => `"${prefix}${id}r${rep}"`);
}

const out = fs.openSync(values.out, 'w');
let written = 0;
for (let rep = 0; written < target; rep++) {
  // The first repetition keeps the session's opening records (Codex's session_meta); later
  // ones repeat the rest.
  const body = (rep === 0 ? lines : lines.slice(1)).map((l) => fresh(l, rep)).join('\n') + '\n';
  fs.writeSync(out, body);
  written += Buffer.byteLength(body);
}
fs.closeSync(out);
console.log(JSON.stringify({ file: values.out, bytes: written }));
