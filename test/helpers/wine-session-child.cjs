// node.exe wine-session-child.cjs <out> <mode> [db] [name] — run by Windows Node under Wine
// from an app folder that has the installed sessionkeep and sessionkeep-win32-x64 packages.
// Node's stdout to a pipe fails under Wine (EBADF), so what it finds is written as JSON to
// <out>. `write` records a streamed round with a tool call and its result in the store at
// db (a C:\ path) for a project path with backslashes, and one message in the default store;
// `read` reopens both and reads back messages, token tracker and a search; `writer` adds 30
// messages to a session of its own (and `read` finds the addon in Electron's app.asar.unpacked), for two processes writing one store at once.
const fs = require('node:fs');
const [out, mode, db, name] = process.argv.slice(2);
if (!mode) process.exit(0); // run as a test file by `node --test test/`: nothing to do

const PROJECT = 'C:\\Users\\dev\\my project\\src';
const result = { platform: process.platform, arch: process.arch, userProfile: process.env.USERPROFILE };

async function main() {
  const { openStore } = require('sessionkeep');
  const { recordToolRound } = require('./tool-round.cjs');
  const store = openStore(db); // the package loads its addon on first use
  result.addon = Object.keys(require.cache).find((f) => f.endsWith('.node'));
  if (mode === 'write') {
    const session = store.createSession({ projectPath: PROJECT });
    recordToolRound(session, 'C:\\app\\config.json');
    await session.flush();
    result.id = session.id;
    const home = openStore();
    const note = home.createSession({ projectPath: PROJECT });
    note.appendUserMessage('stored where Windows keeps a user\'s files');
    await note.flush();
    result.homeId = note.id;
    home.close();
  } else if (mode === 'read') {
    const latest = store.latestSession(PROJECT);
    result.id = latest.id;
    result.sessions = store.listSessions().map((s) => ({ id: s.id, projectPath: s.projectPath, messageCount: s.messageCount }));
    result.messages = latest.messages();
    result.tokens = latest.tokenTracker();
    result.hits = store.search('port config', { projectPath: PROJECT });
    const home = openStore();
    result.homeSessions = home.listSessions().map((s) => s.id);
    home.close();
    // Electron's layout on Windows: require.resolve answers inside app.asar, the addon is in
    // app.asar.unpacked beside it (the test put a copy there).
    const { addonCandidates } = require(require('node:path').join(require.resolve('sessionkeep'), '..', 'loader.js'));
    const resources = `${process.cwd()}\\resources`;
    result.electron = addonCandidates({
      platform: 'win32-x64',
      resolve: () => `${resources}\\app.asar\\node_modules\\sessionkeep-win32-x64\\sessionkeep.node`,
      localBuild: `${resources}\\none.node`,
    });
  } else if (mode === 'writer') {
    const session = store.createSession({ projectPath: `${PROJECT}\\${name}` });
    for (let i = 0; i < 15; i++) {
      session.appendUserMessage(`${name} asks question ${i}`);
      session.ingest({ type: 'text', text: `${name} answers ${i}` });
      session.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } });
    }
    await session.flush();
    result.id = session.id;
  }
  store.close();
}

main().then(
  () => fs.writeFileSync(out, JSON.stringify(result)),
  (err) => fs.writeFileSync(out, JSON.stringify({ ...result, error: String(err && err.stack), code: err && err.code })),
);
