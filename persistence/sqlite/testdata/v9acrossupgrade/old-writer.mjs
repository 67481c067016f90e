// old-writer.mjs is the process of the code before migration 10 in v9-across-upgrade.sql:
// it streams a reply whose text block (over the old BlobThreshold, 10 KB) is journaled as a
// blob, flushes, prints the session's id, and at a line on stdin ends the reply and closes.
// Run from a checkout of f94c63c (schema 9) with its addon and dist built; see across.mjs.
import { createRequire } from 'node:module';

const { openStore } = createRequire(import.meta.url)('./dist/index.js');
const store = openStore(process.argv[2]);
const s = store.createSession({ title: 'across' });
s.appendUserMessage('q');
s.ingest({ type: 'message_start', id: 'm1', model: 'x' });
s.ingest({ type: 'text', text: 'across the upgrade → ✓ '.repeat(600) });
s.ingest({ type: 'tool_use_start', id: 'toolu_1', name: 'Read' });
s.ingest({ type: 'tool_use_delta', partialJson: '{"path":' });
await new Promise((r) => setTimeout(r, 300));
await store.flush();
console.log(JSON.stringify({ id: s.id }));
await new Promise((resolve) => process.stdin.once('data', resolve));
s.ingest({ type: 'tool_use_delta', partialJson: '"a"}' });
s.ingest({ type: 'done', stopReason: 'tool_use' });
await store.flush();
store.close();
