// The addon's CPU profiler (bench/profile.mjs): a profile started and stopped around real
// work is a gzipped pprof file; a second start while one runs is refused with a code and
// leaves the first one writing; a stop without a start does nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { tempDir, tempStore, sessionError } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
// The addon as the package loads it on first use, with SessionError registered as its errors' class.
const { raw: addon } = require('../dist/native.js');

test('a CPU profile of real work is written as gzipped pprof, once at a time', (t) => {
  const out = path.join(tempDir(t), 'cpu.prof');
  addon.__stopCPUProfile(); // nothing running: no error
  addon.__startCPUProfile(out);
  try {
    assert.throws(() => addon.__startCPUProfile(path.join(tempDir(t), 'other.prof')), sessionError('INVALID_ARGUMENT', /already/));
    const { store } = tempStore(t);
    const s = store.createSession();
    const until = performance.now() + 300;
    for (let i = 0; performance.now() < until; i++) s.appendUserMessage(`message ${i} `.repeat(50));
  } finally {
    addon.__stopCPUProfile();
  }
  const bytes = fs.readFileSync(out);
  assert.ok(bytes.length > 100, `${bytes.length} bytes`);
  assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], 'pprof files are gzipped');
  assert.throws(() => addon.__startCPUProfile(path.join(tempDir(t), 'no', 'such', 'dir', 'x.prof')), sessionError('FILE_ERROR'));
});
