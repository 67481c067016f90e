// --continue, --resume [id], --new, and the prompt that offers to resume (seed 003), on a
// real terminal and off one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { sk, tempStore, sessionError, helper } from './helpers/common.mjs';

test('parseResumeArgs reads -c/--continue, -r/--resume [id], -n/--new and leaves the rest', () => {
  const p = (...argv) => sk.parseResumeArgs(argv);
  assert.deepEqual(p(), { request: { mode: 'default' }, rest: [] });
  assert.deepEqual(p('--continue', 'fix it'), { request: { mode: 'continue' }, rest: ['fix it'] });
  assert.deepEqual(p('-c'), { request: { mode: 'continue' }, rest: [] });
  assert.deepEqual(p('--resume', '01a1f', '--verbose'), { request: { mode: 'resume', id: '01a1f' }, rest: ['--verbose'] });
  assert.deepEqual(p('-r', '--verbose'), { request: { mode: 'resume' }, rest: ['--verbose'] });
  assert.deepEqual(p('--model', 'x', '-r'), { request: { mode: 'resume' }, rest: ['--model', 'x'] });
  assert.deepEqual(p('--resume=abc'), { request: { mode: 'resume', id: 'abc' }, rest: [] });
  assert.deepEqual(p('-n'), { request: { mode: 'new' }, rest: [] });
  assert.throws(() => p('-c', '-n'), sessionError('INVALID_ARGUMENT', /only one/));
  assert.throws(() => sk.parseResumeArgs('-c'), TypeError);
});

test('resolveSession: continue, resume by prefix, the picker without an id, new', async (t) => {
  const { store } = tempStore(t);
  const project = '/work/resolve';
  const first = await seed(store, project, 'first task');
  const second = await seed(store, project, 'second task');
  await seed(store, '/work/other', 'elsewhere');

  const cont = sk.resolveSession(store, { mode: 'continue' }, { projectPath: project });
  assert.equal(cont.action, 'resumed');
  assert.equal(cont.session.id, second);
  assert.equal(cont.summary.id, second);
  assert.equal(cont.summary.title, 'second task');
  assert.match(cont.summary.text, /^Session Resumed\n/);

  const byPrefix = sk.resolveSession(store, { mode: 'resume', id: first.slice(0, 34) }, { projectPath: project });
  assert.equal(byPrefix.action, 'resumed');
  assert.equal(byPrefix.session.id, first);

  const pick = sk.resolveSession(store, { mode: 'resume' }, { projectPath: project });
  assert.equal(pick.action, 'pick');
  assert.deepEqual(pick.sessions.map((i) => i.id), [second, first], 'the picker shows this project newest first');
  assert.equal(sk.resolveSession(store, { mode: 'resume' }, { projectPath: project, pickerLimit: 1 }).sessions.length, 1);

  const fresh = sk.resolveSession(store, { mode: 'new' }, { projectPath: project, model: 'm' });
  assert.equal(fresh.action, 'created');
  assert.equal(fresh.session.details().model, 'm');
  assert.equal(fresh.session.details().messageCount, 0);

  const none = sk.resolveSession(store, { mode: 'continue' }, { projectPath: '/work/empty' });
  assert.deepEqual([none.action, none.nothingToContinue, none.session.details().projectPath], ['created', true, '/work/empty']);
  assert.equal(sk.resolveSession(store, { mode: 'default' }, { projectPath: project }).action, 'created');
  assert.throws(() => sk.resolveSession(store, { mode: 'resume', id: 'zzz' }), sessionError('SESSION_NOT_FOUND'));
});

async function seed(store, projectPath, prompt) {
  const s = store.createSession({ projectPath });
  s.appendUserMessage(prompt);
  s.close();
  await store.flush();
  await new Promise((r) => setTimeout(r, 5));
  return s.id;
}

/**
 * promptChild runs prompt-child.mjs, on a real pseudo-terminal through script(1) when tty is
 * set, types `answer` once the question shows (or closes input when answer is null), and
 * resolves with what it printed.
 */
function promptChild(db, project, { tty, answer }) {
  const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(helper('prompt-child.mjs'))} ${JSON.stringify(db)} ${JSON.stringify(project)}`;
  const child = tty
    ? spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, [helper('prompt-child.mjs'), db, project], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let answered = false;
  const onData = (d) => {
    out += d;
    if (!answered && out.includes('[Y/n]')) {
      answered = true;
      if (answer === null) child.stdin.write('\x04'); // end of input on a terminal
      else child.stdin.write(answer + '\r');
    }
  };
  child.stdout.setEncoding('utf8').on('data', onData);
  child.stderr.setEncoding('utf8').on('data', onData);
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => child.kill('SIGKILL'), 15000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      const result = /RESULT:(\S+)/.exec(out);
      if (!result) reject(new Error(`no result (exit ${code}):\n${out}`));
      else resolve({ result: result[1], out });
    });
  });
}

test('promptResume off a terminal resumes without asking, and says so', async (t) => {
  const { db, store } = tempStore(t);
  const id = await seed(store, '/work/prompt', 'Implement auth system');
  const { result, out } = await promptChild(db, '/work/prompt', { tty: false });
  assert.equal(result, id);
  assert.match(out, new RegExp(`Session ID: ${id}`));
  assert.match(out, /Resuming it \(input is not a terminal\)/);
  assert.doesNotMatch(out, /\[Y\/n\]/);
  assert.equal((await promptChild(db, '/work/none', { tty: false })).result, 'null', 'nothing to offer');
});

test('promptResume on a terminal asks; n starts afresh, Enter or y or end of input resumes', async (t) => {
  const { db, store } = tempStore(t);
  const id = await seed(store, '/work/prompt', 'Implement auth system');
  const no = await promptChild(db, '/work/prompt', { tty: true, answer: 'n' });
  assert.equal(no.result, 'null');
  assert.match(no.out, /Title: Implement auth system/);
  assert.match(no.out, /Resume this session\? \[Y\/n\]/);
  for (const answer of ['', 'y', 'YES', null]) {
    assert.equal((await promptChild(db, '/work/prompt', { tty: true, answer })).result, id, `answer ${JSON.stringify(answer)}`);
  }
});
