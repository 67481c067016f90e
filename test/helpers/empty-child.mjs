// node empty-child.mjs <db>
// Records a prompt and a reply that ends with a tool call, then begins the next reply
// (message_start, no block yet), prints {id} and idles until the parent kills it: the kill
// leaves a message with no blocks.
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const store = openStore(process.argv[2]);
const s = store.createSession({ projectPath: '/work/empty' });
s.appendUserMessage('Run the tests');
s.ingest({ type: 'message_start', id: 'msg_empty_1', model: 'claude-sonnet-4-5' });
s.ingest({ type: 'text', text: 'Running them.' });
s.ingest({ type: 'tool_use', id: 'toolu_run', name: 'bash', input: { command: 'npm test' } });
s.ingest({ type: 'done', stopReason: 'tool_use' });
s.ingest({ type: 'message_start', id: 'msg_empty_2', model: 'claude-sonnet-4-5' });
await s.flush(); // the empty message is on disk, streaming, when the kill comes
process.stdout.write(JSON.stringify({ id: s.id }) + '\n');
setInterval(() => {}, 1000); // stay alive: the parent kills this process
