// pg-roundtrips.mjs counts the statements PostgreSQL runs for one W3 iteration (open a
// session, read its last 20 records, close it) and one W4 listing, as the server's
// pg_stat_statements sees them: a count, which the machine's load does not move. It starts
// a throwaway server of its own (test/helpers/pg-cluster.mjs) with pg_stat_statements
// loaded, and measures each build named on the command line in a fresh schema:
//
//   node bench/pg-roundtrips.mjs [--iterations 100] [--turns 500] NAME=DIST_DIR ...
//
// DIST_DIR is a build's dist folder (its index.js); no NAME=DIST_DIR measures this
// checkout's. The reads (statements on the pool: what the caller waits for, one round trip
// each once prepared, but statements sent in one pgx batch share one) are counted apart from the writer's (its transactions and their
// statements, which commit in the background: the access and close records of the open and
// close). The store is left idle first (the token counter and the search indexer done).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startCluster } from '../test/helpers/pg-cluster.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

function options(argv) {
  const o = { iterations: 100, turns: 500, builds: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--iterations') o.iterations = Number(argv[++i]);
    else if (a === '--turns') o.turns = Number(argv[++i]);
    else if (a.includes('=')) {
      const [name, dir] = a.split('=');
      o.builds.push({ name, dir: path.resolve(dir) });
    } else throw new Error(`pg-roundtrips: unknown argument ${a}`);
  }
  if (o.builds.length === 0) o.builds.push({ name: 'this checkout', dir: path.join(HERE, '..', 'dist') });
  return o;
}

/** psql runs sql on the server and returns its rows, fields split by tabs. */
function psql(url, sql) {
  const out = execFileSync('psql', [url, '-qtAF', '\t', '-c', sql], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
}

/** fill writes a session of turns turns (prompt, tool call, tool result, answer) and flushes. */
async function fill(store, turns) {
  const s = store.createSession({ projectPath: '/bench', title: 'round trips' });
  for (let t = 0; t < turns; t++) {
    s.appendUserMessage(`prompt ${t}: read the file and say what it does`);
    s.ingest({ type: 'message_start', id: `msg_${t}a`, model: 'claude-sonnet-4-5' });
    s.ingest({ type: 'text', text: `Reading file ${t}.` });
    s.ingest({ type: 'tool_use_start', id: `toolu_${t}`, name: 'Read' });
    s.ingest({ type: 'tool_use_delta', partialJson: `{"file_path":"src/f${t}.ts"}` });
    s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } });
    s.appendUserMessage([{ type: 'tool_result', tool_use_id: `toolu_${t}`, content: `export const f${t} = ${t};\n`.repeat(20) }]);
    s.ingest({ type: 'message_start', id: `msg_${t}b`, model: 'claude-sonnet-4-5' });
    s.ingest({ type: 'text', text: `File ${t} exports one constant.` });
    s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } });
  }
  s.close();
  await store.flush();
  return s.id;
}

/** kind tells a read on the pool from the writer's statements by what the statement does. */
function kind(query) {
  return /^\s*(SELECT|WITH)\b/i.test(query) && !/FOR UPDATE/i.test(query) ? 'read' : 'writer';
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** statements returns what pg_stat_statements counted since its last reset, by query. */
function statements(url) {
  const rows = psql(url, `SELECT calls, regexp_replace(left(query, 400), '\\s+', ' ', 'g') FROM pg_stat_statements
    WHERE query NOT LIKE '%pg_stat%' AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ORDER BY calls DESC`);
  return rows.map(([calls, q]) => ({ calls: Number(calls), query: q }));
}

/** settle waits until the store's background work (the token counter, the search indexer)
 * has run nothing on the server for a second. */
async function settle(url) {
  for (let tries = 0; tries < 120; tries++) {
    psql(url, 'SELECT pg_stat_statements_reset()');
    await sleep(1000);
    if (statements(url).length === 0) return;
  }
  throw new Error('pg-roundtrips: the store did not become idle in two minutes');
}

/** counted runs fn once the store is idle and returns the statements the server ran
 * meanwhile, by query. */
async function counted(url, fn) {
  await settle(url);
  psql(url, 'SELECT pg_stat_statements_reset()');
  await fn();
  await sleep(300); // the writer's last commit lands
  return statements(url);
}

function report(label, n, statements) {
  const per = (xs) => (xs.reduce((a, s) => a + s.calls, 0) / n).toFixed(2);
  const reads = statements.filter((s) => kind(s.query) === 'read');
  const writer = statements.filter((s) => kind(s.query) === 'writer' && !/^(begin|commit)$/i.test(s.query));
  const commits = statements.filter((s) => /^commit$/i.test(s.query));
  console.log(`  ${label}, per iteration: ${per(reads)} read statements waited for, ` +
    `${per(writer)} statements of the writer in ${per(commits)} transactions (in the background)`);
  for (const s of statements) console.log(`    ${(s.calls / n).toFixed(2)}  ${kind(s.query).padEnd(6)} ${s.query.slice(0, 150)}`);
}

async function main() {
  const o = options(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-roundtrips-'));
  fs.chmodSync(dir, 0o755);
  let cluster = startCluster(dir);
  try {
    psql(cluster.url, `ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
    cluster.stop();
    cluster = startCluster(dir);
    psql(cluster.url, 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    for (const [i, b] of o.builds.entries()) {
      const { openStore } = createRequire(import.meta.url)(path.join(b.dir, 'index.js'));
      const url = `${cluster.url}?search_path=roundtrips_${i}`;
      const store = openStore(url);
      const id = await fill(store, o.turns);
      store.search('constant'); // every message indexed: the indexer has nothing left to do
      console.log(`${b.name} (${b.dir}), a session of ${o.turns * 4} messages, ${o.iterations} iterations:`);
      report('W3 open, tail(20), close', o.iterations, await counted(cluster.url, () => {
        for (let k = 0; k < o.iterations; k++) {
          const s = store.openSession(id);
          s.tail(20);
          s.close();
        }
      }));
      report('W4 listSessions', o.iterations, await counted(cluster.url, () => {
        for (let k = 0; k < o.iterations; k++) store.listSessions({ fields: ['id', 'title', 'messageCount', 'updatedAt'] });
      }));
      store.close();
    }
  } finally {
    cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
