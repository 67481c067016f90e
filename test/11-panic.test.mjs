// A Go panic inside the addon must reach JavaScript as a thrown SessionError with code
// INTERNAL, never as a crash, and the addon must go on working afterwards.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { openStore, SessionError, tempDir } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
// The addon as the package loads it on first use, with SessionError registered as its errors' class.
const { raw: addon } = require('../dist/native.js');

test('a Go panic becomes a SessionError INTERNAL and the process goes on', (t) => {
  assert.throws(() => addon.__panicForTest(), (e) => {
    assert.ok(e instanceof SessionError, `got ${e && e.constructor.name}`);
    assert.equal(e.code, 'INTERNAL');
    assert.match(e.message, /__panicForTest panicked: deliberate panic/);
    return true;
  });
  const store = openStore(path.join(tempDir(t), 'after-panic.db'));
  const s = store.createSession({ projectPath: '/p' });
  s.appendUserMessage('still here');
  assert.equal(s.messages()[0].content[0].text, 'still here');
  store.close();
});
