// An async read keeps each part's parsed array and joins them once at the end (ts/parts.ts,
// concatArrays), which left the restore's event-loop p99 lower than pushing every message
// into one growing array (bench/README.md, "Restore's event-loop delay"). The join passes
// the arrays to concat as arguments, so it must take them in batches: a session of a few
// million messages has more parts than one call may have arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { concatArrays } = require('../dist/parts.js');

test('concatArrays joins more arrays than a call takes arguments, in order', () => {
  const arrays = Array.from({ length: 300_000 }, (_, i) => (i % 3 === 0 ? [] : [i, [i]]));
  assert.throws(() => [].concat(...arrays), RangeError, 'the case must be past what one call takes');
  const joined = concatArrays(arrays);
  const expected = [];
  for (const a of arrays) for (const x of a) expected.push(x);
  assert.equal(joined.length, expected.length);
  assert.deepEqual(joined, expected); // nested arrays stay whole: one level is joined
});

test('concatArrays of no arrays is empty, of one is that array', () => {
  assert.deepEqual(concatArrays([]), []);
  const only = [{ role: 'user' }];
  assert.equal(concatArrays([only]), only);
});
