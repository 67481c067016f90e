// What the PostgreSQL tests share: the throwaway server's URL (SESSIONKEEP_TEST_PG_URL, set
// by make test from test/helpers/pg-cluster.mjs), and a fresh store, one schema, per test.
import { randomBytes } from 'node:crypto';

/** PG_URL is the test server's URL; undefined when no server was started. */
export const PG_URL = process.env.SESSIONKEEP_TEST_PG_URL;

/** skipWithoutPG is the `skip` option of a test that needs the server. */
export const skipWithoutPG = PG_URL ? false : 'SESSIONKEEP_TEST_PG_URL is unset (make test starts a server)';

/**
 * freshPgURL is the URL of a new, empty store on the server at base: a schema of its own,
 * named by the URL's search_path, which opening the store creates.
 */
export function freshPgURL(base = PG_URL) {
  const url = new URL(base);
  url.searchParams.set('search_path', `t_${randomBytes(6).toString('hex')}`);
  return url.toString();
}
