// spawn-after-load-child loads the addon, has Go start its threads by writing to a store
// (argv[2]), then runs a child process to its end, which has libuv install its SIGCHLD
// handler if it has not yet, and prints one JSON line with the child's exit code.
import { spawn } from 'node:child_process';
import { openStore } from './common.mjs';

const store = openStore(process.argv[2]);
store.createSession({ title: 'before a child' }).appendUserMessage('a message for the writer goroutine');
await store.flush();
const code = await new Promise((resolve) => spawn(process.execPath, ['-e', '']).on('exit', resolve));
store.close();
process.stdout.write(`${JSON.stringify({ code })}\n`);
