// adapter-postgres.mjs is bench/adapter.mjs on PostgreSQL: the same translation of the
// harness's events, into a store on the server SESSIONKEEP_BENCH_PG_URL names (make bench
// starts a throwaway one on loopback), one schema per harness folder, so that the shared
// bench's W1-W4 run on PostgreSQL beside the SQLite file and the baselines.
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openAt } from './adapter.mjs';

export const name = 'sessionkeep-pg';

/** schemaOf names the schema of a harness folder: the same folder, the same schema. */
export function schemaOf(dir) {
  return `bench_${crypto.createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16)}`;
}

/** serverURL is the server the figures are taken on. */
function serverURL() {
  const url = process.env.SESSIONKEEP_BENCH_PG_URL;
  if (!url) throw new Error('adapter-postgres: SESSIONKEEP_BENCH_PG_URL names no server (make bench starts one)');
  return url;
}

export function open(dir) {
  const url = new URL(serverURL());
  const schema = schemaOf(dir);
  // A folder the harness made afresh (no id map yet) is a fresh store, as a new file is: the
  // schema of an earlier run in the same folder is dropped.
  if (!fs.existsSync(path.join(dir, 'bench-ids.tsv'))) psql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  url.searchParams.set('search_path', schema);
  return openAt(dir, url.toString(), () => schemaSize(schema));
}

/** psql runs one statement on the server and returns what it prints. */
export function psql(sql) {
  return execFileSync('psql', [serverURL(), '-qtAc', sql], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** schemaSize asks the server how many bytes the schema's tables take. */
export function schemaSize(schema) {
  return Number(psql(`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '${schema}' AND c.relkind IN ('r', 'm')`).trim());
}
