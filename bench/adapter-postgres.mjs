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

/** SCHEMA_FILE is where a harness folder records the name of its schema. */
const SCHEMA_FILE = 'bench-pg-schema';

/** schemaOf names the schema of a harness folder, as the folder records it. */
export function schemaOf(dir) {
  return fs.readFileSync(path.join(dir, SCHEMA_FILE), 'utf8');
}

/** recordedSchema is the schema a harness folder records, undefined when it records none. */
function recordedSchema(dir) {
  return fs.existsSync(path.join(dir, SCHEMA_FILE)) ? schemaOf(dir) : undefined;
}

/** serverURL is the server the figures are taken on. */
function serverURL() {
  const url = process.env.SESSIONKEEP_BENCH_PG_URL;
  if (!url) throw new Error('adapter-postgres: SESSIONKEEP_BENCH_PG_URL names no server (make bench starts one)');
  return url;
}

export function open(dir) {
  const url = new URL(serverURL());
  const schema = schemaFor(dir);
  url.searchParams.set('search_path', schema);
  return openAt(dir, url.toString(), () => schemaSize(schema));
}

/** made are the folders this process gave a new schema, and the schema each. */
const made = [];

/**
 * schemaFor is the schema of a harness folder, a new one for a folder the harness made
 * afresh (no record yet), which is a fresh store, as a new file is. The harness removes a
 * store it times again in its reset, untimed (W1: the folder, and the SQLite file in it); the
 * schema a removed folder named is dropped when this process exits, so no W1 run pays for the
 * last one's removal (a psql process and a DROP SCHEMA, 30 ms of each run when it did).
 */
function schemaFor(dir) {
  const recorded = recordedSchema(dir);
  if (recorded) return recorded;
  const tag = crypto.createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16);
  const schema = `bench_${tag}_${crypto.randomBytes(4).toString('hex')}`;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, SCHEMA_FILE), schema);
  if (made.length === 0) process.on('exit', dropRemoved);
  made.push({ dir, schema });
  return schema;
}

/** dropRemoved drops the schemas of the folders that no longer name them. */
function dropRemoved() {
  const removed = made.filter(({ dir, schema }) => recordedSchema(dir) !== schema);
  if (removed.length) psql(removed.map(({ schema }) => `DROP SCHEMA IF EXISTS "${schema}" CASCADE`).join('; '));
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
