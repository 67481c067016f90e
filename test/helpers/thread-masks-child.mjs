// thread-masks-child loads the addon into a process whose own threads are all started, has
// Go start its threads by writing to a store (argv[2]), and prints one JSON line: the signal
// mask (/proc's SigBlk, hex) of the JS thread before and after the load, and of each thread
// the load started.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { storeLocation } from './store-location.mjs';

const tasks = () => fs.readdirSync('/proc/self/task');
const blocked = (tid) => /^SigBlk:\s*([0-9a-f]+)$/m.exec(fs.readFileSync(`/proc/self/task/${tid}/status`, 'utf8'))[1];

// libuv starts its pool of four threads at the first file operation; Node's others exist already.
await Promise.all(Array.from({ length: 8 }, () => fs.promises.readFile('/proc/self/status')));
const before = new Set(tasks());
const mainBefore = blocked(process.pid);

const { openStore } = createRequire(import.meta.url)('../../dist/index.js');
const store = openStore(storeLocation(process.argv[2]));
const s = store.createSession({ title: 'masks' });
s.appendUserMessage('a message for the writer goroutine');
await store.flush();
const goThreads = tasks().filter((tid) => !before.has(tid)).map(blocked);
process.stdout.write(`${JSON.stringify({ mainBefore, mainAfter: blocked(process.pid), goThreads })}\n`);
store.close();
