// node adapter-crash-child.mjs <db> <sseFile> <bytes>
// Streams the first <bytes> bytes of an Anthropic capture through the real SDK into a
// session with fromAnthropicStream; the connection then stalls (it never ends). Prints one
// line {id} once the stream has been recorded that far, and waits to be killed.
import fs from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { openStore, sk } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, file, bytes] = process.argv.slice(2);
const head = fs.readFileSync(file).subarray(0, Number(bytes));
let sent = false;
const fetch = async () => new Response(new ReadableStream({
  pull(controller) {
    if (sent) return new Promise(() => {}); // stalls: the process is killed before more comes
    sent = true;
    controller.enqueue(new Uint8Array(head));
  },
}), { status: 200, headers: { 'content-type': 'text/event-stream' } });

const store = openStore(db);
const s = store.createSession();
s.appendUserMessage('Weather in Paris?');
const stream = new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 }).messages.stream({ model: 'claude-fixture', max_tokens: 100, messages: [] });
sk.fromAnthropicStream(s, stream).catch(() => {});
// Once the tool input has begun to stream, say so; the parent kills this process soon after.
let printed = false;
stream.on('inputJson', () => {
  if (printed) return;
  printed = true;
  setTimeout(() => process.stdout.write(JSON.stringify({ id: s.id }) + '\n'), 50);
});
setInterval(() => {}, 1000);
