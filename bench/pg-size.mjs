// pg-size.mjs measures what the harness's W2/W3 sessions take on PostgreSQL, for
// report.mjs's store-size target: the harness sizes a store by its folder, which on
// PostgreSQL holds only the id map, so the server is asked for the schema's tables, their
// indexes and TOAST (adapter-postgres.mjs's schemaSize) as the run left them. The SQLite
// file's is the harness's own figure (results.json's manifest). Writes pg-size.json.
//
//   SESSIONKEEP_BENCH_PG_URL=postgres://... node bench/pg-size.mjs --data DIR
import fs from 'node:fs';
import path from 'node:path';
import { schemaOf, schemaSize } from './adapter-postgres.mjs';

const argv = process.argv.slice(2);
const i = argv.indexOf('--data');
const data = path.resolve(i >= 0 ? argv[i + 1] : 'build/bench-data');
const w23 = path.join(data, 'prep', 'sessionkeep-pg', 'w23');
if (!fs.existsSync(w23)) throw new Error(`pg-size: ${w23} does not exist: run the harness with the sessionkeep-pg store first`);
const bytes = schemaSize(schemaOf(w23));
fs.writeFileSync(path.join(data, 'pg-size.json'), JSON.stringify({ w23: bytes }, null, 2));
console.log(`PostgreSQL W2/W3 sessions: ${(bytes / 1e6).toFixed(1)} MB (tables, indexes and TOAST)`);
