// pg-size.mjs measures what the harness's W2/W3 sessions take on PostgreSQL and in the SQLite
// file, both indexed for search, for report.mjs's store-size target. The harness sizes each
// store as its run left it: both stores index for search off the writer's commits, so most of
// the 22,000 messages were still waiting then (the SQLite file's full-text index empty, the
// PostgreSQL vectors unfilled), and on PostgreSQL its folder holds only the id map. So each
// store is first opened and searched once (a search indexes every message waiting: the
// figures are of stores indexed whole), then sized: the SQLite file (with its WAL) as the
// harness sizes it (adapter.mjs's storeBytes), PostgreSQL by the server (the schema's tables,
// indexes and TOAST, adapter-postgres.mjs's schemaSize) as autovacuum leaves it (no VACUUM),
// with each table's share (heap, TOAST, indexes, dead rows) and the large columns as stored,
// which say where a missed target's bytes are. Writes pg-size.json.
//
//   SESSIONKEEP_BENCH_PG_URL=postgres://... node bench/pg-size.mjs --data DIR
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { psql, schemaOf, schemaSize } from './adapter-postgres.mjs';
import { storeBytes, storeFile } from './adapter.mjs';

const require = createRequire(import.meta.url);
const { openStore } = require('../dist/index.js');

const argv = process.argv.slice(2);
const i = argv.indexOf('--data');
const data = path.resolve(i >= 0 ? argv[i + 1] : 'build/bench-data');
const prep = path.join(data, 'prep');
const w23 = path.join(prep, 'sessionkeep-pg', 'w23');
const sqliteW23 = path.join(prep, 'sessionkeep', 'w23');
if (!fs.existsSync(w23)) throw new Error(`pg-size: ${w23} does not exist: run the harness with the sessionkeep-pg store first`);
const schema = schemaOf(w23);

/** indexWhole opens the store at location and searches it once, which indexes every message
 * waiting for search; it returns how long that took, in seconds. */
function indexWhole(location) {
  const started = process.hrtime.bigint();
  const store = openStore(location);
  try {
    store.search('the', { limit: 1 });
  } finally {
    store.close();
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const indexing = {};
let sqlite;
if (fs.existsSync(storeFile(sqliteW23))) {
  indexing.sqlite = indexWhole(storeFile(sqliteW23));
  sqlite = storeBytes(sqliteW23);
}
const url = new URL(process.env.SESSIONKEEP_BENCH_PG_URL);
url.searchParams.set('search_path', schema);
indexing.postgres = indexWhole(url.toString());
const waiting = Number(psql(`SELECT count(*) FROM "${schema}".messages
  WHERE search IS NULL AND (body IS NOT NULL OR search_text IS NOT NULL)`).trim());
if (waiting > 0) throw new Error(`pg-size: ${waiting} messages still wait to be indexed after a search`);

const bytes = schemaSize(schema);
const tables = psql(`SELECT c.relname, pg_relation_size(c.oid), coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0),
    pg_indexes_size(c.oid), coalesce(s.n_dead_tup, 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
    WHERE n.nspname = '${schema}' AND c.relkind = 'r' ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 5`)
  .trim().split('\n').filter(Boolean).map((line) => {
    const [name, heap, toast, indexes, dead] = line.split('|');
    return { name, heap: Number(heap), toast: Number(toast), indexes: Number(indexes), deadRows: Number(dead) };
  });
// The columns as stored (compressed or not): the messages' bodies, the text search reads
// and its vectors, and the journal's block bodies (messages still streaming; none once the
// run has ended); and the search index.
const [body, searchText, vectors, journal, searchIndex] = psql(`SELECT coalesce(sum(pg_column_size(body)), 0), coalesce(sum(pg_column_size(search_text)), 0),
    coalesce(sum(pg_column_size(search)), 0), (SELECT coalesce(sum(pg_column_size(body)), 0) FROM "${schema}".blocks),
    coalesce(pg_relation_size(to_regclass('"${schema}".messages_search_indexed')), 0)
    FROM "${schema}".messages`).trim().split('|').map(Number);
const columns = { body, searchText, vectors, journal, searchIndex };
fs.writeFileSync(path.join(data, 'pg-size.json'), JSON.stringify({ w23: bytes, sqliteW23: sqlite, indexing, tables, columns }, null, 2));
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
console.log(`W2/W3 sessions, every message indexed for search (a search first: ${indexing.sqlite?.toFixed(1) ?? '–'} s on SQLite, `
  + `${indexing.postgres.toFixed(1)} s on PostgreSQL): SQLite file ${sqlite === undefined ? 'not measured' : mb(sqlite)}, `
  + `PostgreSQL ${mb(bytes)} (tables, indexes and TOAST); ${tables.map((t) =>
  `${t.name} ${mb(t.heap)} + TOAST ${mb(t.toast)} + indexes ${mb(t.indexes)} (${t.deadRows} dead rows)`).join('; ')}\n`
  + `  columns as stored: message bodies ${mb(body)}, search text ${mb(searchText)}, search vectors ${mb(vectors)}, `
  + `journaled blocks ${mb(journal)}; the search index ${mb(searchIndex)}`);
