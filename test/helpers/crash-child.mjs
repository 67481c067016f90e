// node crash-child.mjs <db> <variant>
// Records part of a conversation without flush and without a final done, prints one line
// {id} when it is done ingesting, then idles until the parent kills it.
//   variant "text":       the last assistant message is text still streaming
//   variant "tool_input": the last assistant message is a tool_use whose input is streaming
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, variant] = process.argv.slice(2);
const store = openStore(db);
const s = store.createSession({ projectPath: '/work/crash' });
s.appendUserMessage('List the files and count them');
s.ingest({ type: 'message_start', id: 'msg_crash_1', model: 'claude-sonnet-4-5' });
s.ingest({ type: 'text', text: 'Let me ' });
s.ingest({ type: 'text', text: 'look.' });
s.ingest({ type: 'tool_use', id: 'toolu_ls', name: 'bash', input: { command: 'ls' } });
s.ingest({ type: 'tool_result', toolUseId: 'toolu_ls', content: 'a.txt\nb.txt', raw: { stdout: 'a.txt\nb.txt\n', exitCode: 0 } });
if (variant === 'tool_input') {
  s.ingest({ type: 'text', text: 'Counting now.' });
  s.ingest({ type: 'tool_use_start', id: 'toolu_wc', name: 'bash' });
  s.ingest({ type: 'tool_use_delta', partialJson: '{"command": ' });
  s.ingest({ type: 'tool_use_delta', partialJson: '"ls | wc' });
} else {
  s.ingest({ type: 'text', text: 'There are ' });
  s.ingest({ type: 'text', text: 'two files: ' });
  s.ingest({ type: 'text', text: 'a.txt and b.txt → ✓' });
}
process.stdout.write(JSON.stringify({ id: s.id }) + '\n');
setInterval(() => {}, 1000); // stay alive: the parent kills this process
