// signal-flood-child writes sessions to a store (argv[2]) for argv[4] seconds while another
// process sends it the signal argv[3] as fast as it can, and prints one JSON line: the
// sessions written and the signals its handler saw. For any signal but SIGCHLD it listens
// with process.on, so that libuv installs the handler after the Go runtime started; libuv
// installs SIGCHLD's when it starts the sender.
//
// The sender stops by itself after those seconds rather than wait for this process to stop
// it, so that nothing this process does can make the flood last.
import { spawn } from 'node:child_process';
import { openStore } from './common.mjs';

const [file, signal, seconds] = process.argv.slice(2);
const store = openStore(file);
let handled = 0;
if (signal !== 'SIGCHLD') process.on(signal, () => { handled++; });
const sender = spawn(process.execPath, ['-e', `
  const until = Date.now() + ${Number(seconds) * 1000};
  const send = () => {
    if (Date.now() >= until) return;
    try { for (let i = 0; i < 20; i++) process.kill(${process.pid}, '${signal}'); } catch { return; }
    setImmediate(send);
  };
  send();`], { stdio: 'ignore' });

const until = Date.now() + Number(seconds) * 1000;
let sessions = 0;
while (Date.now() < until) {
  const s = store.createSession({ title: `flooded ${sessions}` });
  for (let i = 0; i < 50; i++) s.appendUserMessage(`message ${i} `.repeat(1 + (i % 8)));
  await store.flush();
  if (s.messages().length !== 50) throw new Error(`session ${sessions}: ${s.messages().length} messages`);
  sessions++;
}
sender.kill('SIGKILL');
store.close();
process.stdout.write(`${JSON.stringify({ sessions, handled })}\n`);
