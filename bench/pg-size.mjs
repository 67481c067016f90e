// pg-size.mjs measures what the harness's W2/W3 sessions take on PostgreSQL, for
// report.mjs's store-size target: the harness sizes a store by its folder, which on
// PostgreSQL holds only the id map, so the server is asked for the schema's tables, their
// indexes and TOAST (adapter-postgres.mjs's schemaSize) as the run left them, and for each
// table's share (heap, TOAST, indexes) and the large columns as stored, which say
// where a missed target's bytes are. The
// SQLite file's is the harness's own figure (results.json's manifest). Writes pg-size.json.
//
//   SESSIONKEEP_BENCH_PG_URL=postgres://... node bench/pg-size.mjs --data DIR
import fs from 'node:fs';
import path from 'node:path';
import { psql, schemaOf, schemaSize } from './adapter-postgres.mjs';

const argv = process.argv.slice(2);
const i = argv.indexOf('--data');
const data = path.resolve(i >= 0 ? argv[i + 1] : 'build/bench-data');
const w23 = path.join(data, 'prep', 'sessionkeep-pg', 'w23');
if (!fs.existsSync(w23)) throw new Error(`pg-size: ${w23} does not exist: run the harness with the sessionkeep-pg store first`);
const schema = schemaOf(w23);
const bytes = schemaSize(schema);
const tables = psql(`SELECT c.relname, pg_relation_size(c.oid), coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0),
    pg_indexes_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = '${schema}' AND c.relkind = 'r' ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 5`)
  .trim().split('\n').filter(Boolean).map((line) => {
    const [name, heap, toast, indexes] = line.split('|');
    return { name, heap: Number(heap), toast: Number(toast), indexes: Number(indexes) };
  });
// The columns as stored (compressed or not): the messages' bodies, the text search reads
// and its vectors, and the journal's block bodies (messages still streaming; none once the
// run has ended).
const [body, searchText, vectors, journal] = psql(`SELECT coalesce(sum(pg_column_size(body)), 0), coalesce(sum(pg_column_size(search_text)), 0),
    coalesce(sum(pg_column_size(search)), 0), (SELECT coalesce(sum(pg_column_size(body)), 0) FROM "${schema}".blocks)
    FROM "${schema}".messages`).trim().split('|').map(Number);
const columns = { body, searchText, vectors, journal };
fs.writeFileSync(path.join(data, 'pg-size.json'), JSON.stringify({ w23: bytes, tables, columns }, null, 2));
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
console.log(`PostgreSQL W2/W3 sessions: ${mb(bytes)} (tables, indexes and TOAST); ${tables.map((t) =>
  `${t.name} ${mb(t.heap)} + TOAST ${mb(t.toast)} + indexes ${mb(t.indexes)}`).join('; ')}\n`
  + `  columns as stored: message bodies ${mb(body)}, search text ${mb(searchText)}, search vectors ${mb(vectors)}, journaled blocks ${mb(journal)}`);
