// node arm64-session-child.cjs <db> write|read — run by an arm64 Node under qemu from an app
// folder that has the installed sessionkeep and sessionkeep-linux-arm64-gnu packages. `write`
// records a streamed turn with a tool call and closes the store; `read` reopens the store
// and prints what a resume restores, and which addon file was loaded.
const [db, mode] = process.argv.slice(2);
if (!mode) process.exit(0); // run as a test file by `node --test test/`: nothing to do

const { openStore } = require('sessionkeep');
const { recordToolRound } = require('./tool-round.cjs');
const store = openStore(db);
if (mode === 'write') {
  const session = store.createSession({ projectPath: '/work/arm64' });
  recordToolRound(session, '/etc/config.json');
  session.flush().then(() => {
    store.close();
    console.log(JSON.stringify({ id: session.id }));
  });
} else {
  const [info] = store.listSessions();
  const session = store.openSession(info.id);
  const addon = Object.keys(require.cache).find((f) => f.endsWith('.node'));
  console.log(JSON.stringify({ id: session.id, messages: session.messages(), tokens: session.tokenTracker(), addon, arch: process.arch }));
  store.close();
}
