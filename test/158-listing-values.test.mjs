// A listing, sync or async, crosses as the names of the fields asked for, then each
// session's values of them (null where the session has none), and the package makes the
// objects (ts/listing.ts): for JSON.parse, no names to read again for every session. What
// listSessions() returns must be what the async listing returns: the same sessions, fields,
// values and key order, a field the session has no value of left out, not null.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from './helpers/common.mjs';

test('listSessions() and listSessionsAsync() make the same objects from values', async (t) => {
  const { store } = tempStore(t);
  const plain = store.createSession({ title: 'plain' });
  const full = store.createSession({ projectPath: '/p', title: 'caf\u00e9 "x" \\ \u2192 \n', provider: 'anthropic', model: 'claude-test', contextWindow: 200000 });
  full.appendUserMessage('hello');
  await full.flush();
  const forked = await full.fork();
  const archived = store.createSession({ title: 'archived' });
  store.archiveSession(archived.id);
  for (const s of [plain, full, forked, archived]) s.close();

  const fieldSets = [
    undefined,
    ['id', 'title', 'messageCount', 'updatedAt'],
    // absent values between present ones: order and absence both show
    ['id', 'provider', 'title', 'contextWindow', 'lastMessageAt', 'archivedAt', 'forkedFrom', 'tokens', 'status'],
    ['model'],
  ];
  for (const fields of fieldSets) {
    for (const extra of [{}, { includeArchived: true }, { projectPath: '/p' }, { limit: 2, offset: 1 }]) {
      const options = { ...extra, ...(fields ? { fields } : {}) };
      const got = store.listSessions(options);
      const want = await store.listSessionsAsync(options);
      assert.equal(JSON.stringify(got), JSON.stringify(want), `fields ${fields} ${JSON.stringify(extra)}`);
    }
  }
  const all = store.listSessions({ includeArchived: true });
  assert.equal(all.length, 4);
  const byId = new Map(all.map((i) => [i.id, i]));
  assert.equal(byId.get(full.id).model, 'claude-test');
  assert.ok(!('model' in byId.get(plain.id)), 'a session without a model lists without the key');
  assert.ok(!('archivedAt' in byId.get(plain.id)));
  assert.ok(typeof byId.get(archived.id).archivedAt === 'string');
  assert.equal(byId.get(forked.id).forkedFrom.sessionId, full.id);
  assert.deepEqual(store.listSessions({ projectPath: '/none' }), [], 'an empty listing');
});

