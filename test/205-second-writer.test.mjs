// Two processes writing one session of a SQLite file: the second, whose reply takes the seq
// of a reply the first is still streaming, is refused with SESSION_CONFLICT as on PostgreSQL,
// and the first's rows (its message row and the block rows journaling its stream) stay as it
// wrote them; the prompt the second appends after its refused reply is refused with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { helper, openStore, sleep, sqliteFileOnly, tempStore } from './helpers/common.mjs';
import { verifyProblems } from './helpers/verify.mjs';

const sql = (db, statement) => execFileSync('sqlite3', [db, statement], { encoding: 'utf8' }).trim();

/** secondWriter starts second-writer-child on the session; next() resolves with its next line. */
function secondWriter(db, id) {
  const proc = spawn(process.execPath, [helper('second-writer-child.mjs'), db, id], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let buffered = '';
  proc.stdout.setEncoding('utf8').on('data', (d) => {
    buffered += d;
    for (let i; (i = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(i + 1)) lines.push(JSON.parse(buffered.slice(0, i)));
  });
  let read = 0;
  const next = async () => {
    for (const deadline = Date.now() + 20000; lines.length <= read; await sleep(20)) {
      if (Date.now() > deadline) throw new Error(`second-writer-child: no line ${read} in 20 s`);
    }
    return lines[read++];
  };
  return { next, cue: () => proc.stdin.end('go\n') };
}

test('a second process streaming into a session the first streams into is refused, the first\'s rows untouched',
  { skip: sqliteFileOnly('two processes share one SQLite file') }, async (t) => {
    const { db, store } = tempStore(t);
    const s = store.createSession({ title: 'two writers' });
    s.appendUserMessage('the question');
    await store.flush();
    const second = secondWriter(db, s.id);
    assert.deepEqual(await second.next(), { opened: true });

    // The first streams its reply at the seq the second will take, journaled in block rows.
    s.ingest({ type: 'message_start', id: 'msg_first', model: 'first-model' });
    s.ingest({ type: 'text', text: 'the first writer\'s reply' });
    for (const deadline = Date.now() + 10000; sql(db, 'SELECT count(*) FROM blocks WHERE seq = 1') === '0'; await sleep(20)) {
      assert.ok(Date.now() < deadline, 'the first writer\'s streaming block was never journaled');
      await store.flush();
    }
    const journal = sql(db, 'SELECT seq, idx, partial, hex(body) FROM blocks ORDER BY seq, idx');
    const row = sql(db, 'SELECT seq, uuid, status, meta FROM messages WHERE seq = 1');

    second.cue();
    const { flushes } = await second.next();
    assert.equal(flushes.length, 2);
    for (const f of flushes) {
      assert.equal(f.ok, false, JSON.stringify(flushes));
      assert.equal(f.code, 'SESSION_CONFLICT');
    }
    assert.equal(sql(db, 'SELECT seq, idx, partial, hex(body) FROM blocks ORDER BY seq, idx'), journal, 'the first writer\'s block rows were changed');
    assert.equal(sql(db, 'SELECT seq, uuid, status, meta FROM messages WHERE seq = 1'), row, 'the first writer\'s message row was changed');

    s.ingest({ type: 'text', text: ', finished' });
    s.ingest({ type: 'done', stopReason: 'end_turn' });
    await store.flush();
    store.close();

    const again = openStore(db);
    t.after(() => again.close());
    const messages = again.openSession(s.id).messages();
    assert.deepEqual(messages.map((m) => [m.role, m.content.map((b) => b.text).join('')]), [
      ['user', 'the question'],
      ['assistant', 'the first writer\'s reply, finished'],
    ]);
    assert.equal(again.listSessions()[0].messageCount, 2);
    assert.deepEqual(await verifyProblems(again), []);
  });
