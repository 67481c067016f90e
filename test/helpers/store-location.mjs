// The backend switch of the test suite, kept apart from common.mjs because it loads no
// addon: a helper that must do something before the addon loads (a WebAssembly trap) maps
// its store path with it too.
import crypto from 'node:crypto';
import path from 'node:path';

/**
 * The backend switch. SESSIONKEEP_TEST_BACKEND=postgres, with SESSIONKEEP_TEST_PG_URL naming a
 * server (make test starts a throwaway one), runs the whole suite against PostgreSQL:
 * openStore(path) below, storeLocation and storeEnv map each store file a test names to a
 * schema of that server derived from the file's path, so every test, child process and CLI
 * run that names one path reaches one store. Unset, or `sqlite`, the suite runs on files.
 *
 * On PostgreSQL the tests about the SQLite FILE itself are skipped, each saying why through
 * sqliteFileOnly():
 *   01  the file's mode 0600 and its folder's 0700; the default file ~/.sessionkeep/sessions.db;
 *       a file that is not a database (STORE_CORRUPT)
 *   34  bytes of the file flipped (SESSION_CORRUPT)
 *   102 the disk under the file filling up (DISK_FULL)
 *   103 the file's folder deleted (STORE_GONE), made read-only, or on a read-only disk
 * and, inside tests that otherwise run on both, the checks that read the file: 100 and 101
 * (sqlite3's integrity_check after each kill), 104 (the record's status read with sqlite3),
 * 107 (no secret among the file's bytes). The packaging and loading tests (90-94,
 * packagingOnly()) open no store the switch could move: they run once, in the SQLite run, as
 * does the Node 22/24/26 matrix (test/matrix).
 * Every other test runs on both backends.
 */
export const BACKEND = process.env.SESSIONKEEP_TEST_BACKEND || 'sqlite';
if (BACKEND !== 'sqlite' && BACKEND !== 'postgres') {
  throw new Error(`SESSIONKEEP_TEST_BACKEND must be sqlite or postgres, not ${JSON.stringify(BACKEND)}`);
}
export const ON_POSTGRES = BACKEND === 'postgres';
const PG_URL = process.env.SESSIONKEEP_TEST_PG_URL;
if (ON_POSTGRES && !PG_URL) {
  throw new Error('SESSIONKEEP_TEST_BACKEND=postgres needs SESSIONKEEP_TEST_PG_URL (node test/helpers/pg-cluster.mjs start <dir> prints one)');
}

/**
 * storeLocation returns what openStore takes for the store file `file`: the file itself, or
 * on PostgreSQL the server's URL with a schema named after a hash of the file's absolute
 * path (a fresh temp folder gives a fresh schema, the same path the same one).
 */
export function storeLocation(file) {
  if (!ON_POSTGRES || typeof file !== 'string' || file === '') return file; // bad input stays bad
  if (/^postgres(ql)?:\/\//i.test(file)) return file; // mapped already (a store's own .path)
  const url = new URL(PG_URL);
  const hash = crypto.createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 16);
  url.searchParams.set('search_path', `t_${hash}`);
  return url.toString();
}

/** storeEnv is process.env with SESSIONKEEP_DB naming the store of `file`, for a child. */
export function storeEnv(file, env = process.env) {
  return { ...env, SESSIONKEEP_DB: storeLocation(file) };
}

/**
 * sqliteFileOnly is a test's `skip` option for a test about the SQLite file itself: false on
 * SQLite, the reason on PostgreSQL.
 */
export function sqliteFileOnly(reason) {
  return ON_POSTGRES ? `about the SQLite file (${reason}): not run on PostgreSQL` : false;
}

/**
 * packagingOnly is the `skip` option of a packaging or loading test, which opens no store the
 * switch could move (it installs tarballs, loads the addon in other ways): it runs once, in
 * the SQLite run, and is skipped on PostgreSQL.
 */
export function packagingOnly() {
  return ON_POSTGRES ? 'packaging and loading: no store to switch, run once in the SQLite run' : false;
}
