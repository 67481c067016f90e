// verifyProblems runs store.verify() on a SQLite store a test leaves (a PostgreSQL server
// checks its own tables) and returns each problem that is damage as one line: [] when clean.
import { ON_POSTGRES } from './store-location.mjs';

export async function verifyProblems(store) {
  if (ON_POSTGRES) return [];
  const report = await store.verify();
  return report.problems.filter((p) => p.damage).map((p) => `verify: ${p.code} ${p.sessionId ?? ''} ${p.message}`);
}
