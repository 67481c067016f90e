// node arm64-session-child.cjs <db> write|read — run by an arm64 Node under qemu from an app
// folder that has the installed sessionkeep and sessionkeep-linux-arm64-gnu packages. `write`
// records a streamed turn with a tool call and closes the store; `read` reopens the store
// and prints what a resume restores, and which addon file was loaded.
const [db, mode] = process.argv.slice(2);
if (!mode) process.exit(0); // run as a test file by `node --test test/`: nothing to do

const { openStore } = require('sessionkeep');
const store = openStore(db);
if (mode === 'write') {
  const session = store.createSession({ projectPath: '/work/arm64' });
  session.appendUserMessage('Read the config file and tell me what port it uses');
  session.ingest({ type: 'message_start', id: 'msg_01', model: 'claude-sonnet-4-5' });
  session.ingest({ type: 'thinking', thinking: 'I should read the config.' });
  session.ingest({ type: 'signature', signature: 'EqQBCgIYAhIM' });
  session.ingest({ type: 'tool_use_start', id: 'toolu_01', name: 'read_file' });
  session.ingest({ type: 'tool_use_delta', partialJson: '{"path": "/etc/' });
  session.ingest({ type: 'tool_use_delta', partialJson: 'config.json"}' });
  session.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 1520, output_tokens: 87 } });
  session.ingest({ type: 'tool_result', toolUseId: 'toolu_01', content: '{"port": 8080}' });
  session.ingest({ type: 'text', text: 'The config uses port 8080.' });
  session.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 1650, output_tokens: 12 } });
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
