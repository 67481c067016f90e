// node poll-text-child.mjs <db> <sessionId> <expectedText> <timeoutMs>
// Polls, from this separate process, the text of the session's last message until it is
// expectedText or timeoutMs pass, and prints { found, text, ms }. Run with spawnSync, it
// reads what another process's writer has committed while that process's JS thread is
// blocked (and so hands nothing over on a later event-loop turn).
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, id, expected, timeoutMs] = process.argv.slice(2);
const store = openStore(db);
const s = store.openSession(id);
const start = performance.now();
let text;
for (;;) {
  text = s.messages().at(-1)?.content.map((b) => b.text ?? b.thinking ?? '').join('');
  if (text === expected || performance.now() - start > Number(timeoutMs)) break;
  await new Promise((r) => setTimeout(r, 2));
}
process.stdout.write(JSON.stringify({ found: text === expected, text, ms: performance.now() - start }) + '\n');
store.close();
