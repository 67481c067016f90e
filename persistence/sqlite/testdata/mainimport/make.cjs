// make.cjs DIST DIR writes, in DIR, transcript.jsonl (a Claude Code transcript of our own:
// 12 records, thinking with its signature, tool calls and results of a few KB, which main
// packed with s2 and an import now packs with its dictionary) and main.db, the store the
// package built at DIST (main at 505d7f0) makes by importing it. main-import.sql is the
// `sqlite3 .dump` of that store.
//
//   node persistence/sqlite/testdata/mainimport/make.cjs <main's checkout>/dist /tmp/mainimport
//   cp /tmp/mainimport/transcript.jsonl persistence/sqlite/testdata/mainimport/
//   sqlite3 /tmp/mainimport/main.db .dump > persistence/sqlite/testdata/main-import.sql
const fs = require('node:fs');
const path = require('node:path');
const [dist, dir] = process.argv.slice(2);
fs.mkdirSync(dir, { recursive: true });

const session = '0f3c2a10-5b7e-4c1d-9a2e-000000000001';
const envelope = { isSidechain: false, userType: 'external', cwd: '/home/dev/orchard', sessionId: session, version: '2.1.0', gitBranch: 'main' };
const lines = [];
let parent = null;
let clock = Date.UTC(2026, 10, 1, 9, 0, 0);
/** record appends one record after the one before it. */
function record(type, message, more = {}) {
  const uuid = `0f3c2a10-5b7e-4c1d-9a2e-${String(lines.length + 1).padStart(12, '0')}`;
  lines.push({ parentUuid: parent, ...envelope, type, message, uuid, timestamp: new Date(clock).toISOString(), ...more });
  parent = uuid;
  clock += 1500;
}
/** listing returns a file listing of n numbered lines, a few KB for n of about 60. */
const listing = (n, word) => Array.from({ length: n }, (_, i) => `${String(i + 1).padStart(5)}\tfunc prune${i % 7}(tree *Tree) error { return tree.cut(${i}) } // ${word}`).join('\n');
const usage = (output) => ({ input_tokens: 12, cache_creation_input_tokens: 300, cache_read_input_tokens: 9000, output_tokens: output });
/** assistant appends an assistant record of content. */
const assistant = (id, content, output) => record('assistant', { model: 'claude-sonnet-4-5', id, type: 'message', role: 'assistant', content, stop_reason: null, stop_sequence: null, usage: usage(output) }, { requestId: `req_${id}` });

record('user', { role: 'user', content: 'Find why the orchard pruner skips the last branch, and fix it.' });
assistant('msg_a1', [{ type: 'thinking', thinking: 'The pruner walks the tree; an off-by-one in the loop bound would skip the last branch.', signature: 'c2lnbmF0dXJlLW9mLW91ci1vd24tdGVzdA==' }], 40);
assistant('msg_a1', [{ type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/home/dev/orchard/prune.go' } }], 60);
record('user', { role: 'user', content: [{ tool_use_id: 'toolu_01', type: 'tool_result', content: listing(60, 'walnut') }] }, { toolUseResult: { type: 'text', file: { filePath: '/home/dev/orchard/prune.go', numLines: 60 } } });
assistant('msg_a2', [{ type: 'text', text: 'The loop stops one branch early: `i < len(branches)-1`.' }], 30);
assistant('msg_a2', [{ type: 'tool_use', id: 'toolu_02', name: 'Edit', input: { file_path: '/home/dev/orchard/prune.go', old_string: listing(20, 'old'), new_string: listing(20, 'new') } }], 900);
record('user', { role: 'user', content: [{ tool_use_id: 'toolu_02', type: 'tool_result', content: 'The file /home/dev/orchard/prune.go has been updated.' }] });
assistant('msg_a3', [{ type: 'tool_use', id: 'toolu_03', name: 'Bash', input: { command: 'go test ./...', description: 'Run the tests' } }], 50);
record('user', { role: 'user', content: [{ tool_use_id: 'toolu_03', type: 'tool_result', content: listing(40, 'ok') }] });
assistant('msg_a4', [{ type: 'text', text: 'Fixed: the pruner now visits every branch, and the tests pass.' }], 25);
record('user', { role: 'user', content: 'Thanks. Which test covers it?' });
assistant('msg_a5', [{ type: 'text', text: 'TestPruneVisitsTheLastBranch, in prune_test.go.' }], 20);

const file = path.join(dir, 'transcript.jsonl');
fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
const { openStore } = require(path.resolve(dist, 'index.js'));
const db = path.join(dir, 'main.db');
fs.rmSync(db, { force: true });
const store = openStore(db);
store.import(file).then(() => store.close());
