// make.cjs DIST DB writes, with the package built at DIST (main at 83a4f15, migration 10),
// a store at DB that v10.sql is the `sqlite3 .dump` of: one session, a tool output of
// 10 KB (a body the code after it would pack) holding "okapi", an answer holding "narwhal".
//
//   node persistence/sqlite/testdata/v10store/make.cjs <main's checkout>/dist /tmp/v10.db
//   sqlite3 /tmp/v10.db .dump > persistence/sqlite/testdata/v10.sql
const [dist, db] = process.argv.slice(2);
const { openStore } = require(require('node:path').resolve(dist, 'index.js'));
const store = openStore(db);
const s = store.createSession({ title: 'written by main', projectPath: '/p' });
s.appendUserMessage('Read the parser');
s.ingest({ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/src/parser.go' } });
s.ingest({ type: 'done', stopReason: 'tool_use' });
let out = '';
for (let i = 1; out.length < 9000; i++) out += `${String(i).padStart(6)}→  func parse${i % 13}(input string) error { return nil }${i === 50 ? ' okapi' : ''}\n`;
s.ingest({ type: 'tool_result', toolUseId: 'toolu_1', content: out });
s.ingest({ type: 'text', text: 'The parser is fine, said the narwhal.' });
s.ingest({ type: 'done', stopReason: 'end_turn' });
s.close();
store.close();
