// The example agent (examples/agent-modal) in a real terminal: tmux runs it, the test types
// and reads the screen. The scripted model plays the assistant and really runs the tools in
// a temp project folder; everything goes to a temp database.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, tempDir, storeLocation } from './helpers/common.mjs';
import { Terminal, tmuxVersion } from './helpers/tmux.mjs';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../examples/agent-modal/dist/main.js');
const FIRST_PROMPT = 'read notes.txt and look for "port"';

before(() => {
  assert.ok(tmuxVersion(), 'these tests need tmux (make setup installs it: apt-get install -y tmux)');
  assert.ok(fs.existsSync(MAIN), `${MAIN} is missing: run make build`);
});

/**
 * project makes a project folder, a database beside it, and a terminal whose shell is in
 * the folder. `delayMs` paces the scripted model's stream.
 */
function project(t, { delayMs = 5, contextWindow } = {}) {
  const dir = tempDir(t, 'sessionkeep-agent-');
  const root = path.join(dir, 'shop');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'notes.txt'), 'port: 8080\nhost: localhost\n');
  fs.writeFileSync(path.join(root, 'README.md'), '# Shop\nTODO: explain the config\n');
  fs.writeFileSync(path.join(root, 'src', 'server.js'), 'const host = "localhost";\nlisten(8080);\n');
  const db = path.join(dir, 'sessions.db');
  const env = { ...process.env, SESSIONKEEP_DB: storeLocation(db) };
  delete env.ANTHROPIC_API_KEY;
  const term = new Terminal(t, { cwd: root, env });
  /** agent starts the agent in the terminal; `pace` overrides the model's delay for this run. */
  const window = contextWindow ? `AGENT_MODAL_CONTEXT_WINDOW=${contextWindow} ` : '';
  const agent = (args = '', pace = delayMs) => term.run(`${window}AGENT_MODAL_DELAY_MS=${pace} '${process.execPath}' '${MAIN}' ${args}`.trim());
  return { root, db, term, agent };
}

/** ready waits until the agent waits for a prompt: its input line, empty, is the last line. */
function ready(term, what = 'the agent to wait for a prompt') {
  return term.waitFor((screen) => /\nContext .*\n>$/.test(screen), { what });
}

/** converse types a prompt and waits for the scripted model's whole answer. */
async function converse(term, prompt, toolCalls) {
  term.type(prompt);
  term.press('Enter');
  await term.waitFor(new RegExp(`This conversation has made ${toolCalls} tool calls so far \\(.*\\)\\.`), { what: `the answer to ${prompt}` });
  return ready(term);
}

/** meterTokens reads the tokens the context meter shows: "· 1.2k/32.8k" is 1200. */
function meterTokens(screen) {
  const [, n, k] = /Context .* · ([\d.]+)(k?)\/[\d.]+k/.exec(screen);
  return Number(n) * (k ? 1000 : 1);
}

/** command types a session command, and waits for what it prints and for the prompt after it. */
async function command(term, line, expected) {
  term.type(line);
  term.press('Enter');
  await term.waitFor(expected, { what: `the output of ${line}` });
  return ready(term, `the prompt after ${line}`);
}

/** quit leaves the agent with /exit, waits for the shell, and returns the screen. */
async function quit(term) {
  term.type('/exit');
  term.press('Enter');
  await term.shellReady();
  return term.screen();
}

/** The first turn's tool calls and results, as the transcript draws them. */
const FIRST_TURN = [
  '> read notes.txt and look for "port"',
  '● list_dir(path: ".")',
  '⎿  README.md',
  'notes.txt',
  'src/',
  '● read_file(path: "notes.txt")',
  '⎿  port: 8080',
  'host: localhost',
  '● grep(pattern: "port", path: ".")',
  '⎿  notes.txt:1: port: 8080',
];

function assertShowsInOrder(screen, parts) {
  let at = 0;
  for (const part of parts) {
    const found = screen.indexOf(part, at);
    assert.ok(found >= 0, `the screen should show ${JSON.stringify(part)} after position ${at}:\n${screen}`);
    at = found + part.length;
  }
}

test('a conversation with tool calls, quit, then --continue shows the earlier tool calls and results and goes on from them', async (t) => {
  const { term, agent, db, root } = project(t, { delayMs: 60 });
  agent();
  assert.match(await ready(term), /New session\./);

  term.type(FIRST_PROMPT);
  term.press('Enter');
  // Tool calls and results show as they arrive, before the model has finished its turn.
  const early = await term.waitFor(/⎿  README\.md/, { what: 'the first tool result' });
  assert.doesNotMatch(early, /Here is what I found/);
  const screen = await ready(term, 'the end of the turn');
  assertShowsInOrder(screen, [...FIRST_TURN, '"port" is on 1 line in 1 file', '(list_dir ×1, read_file ×1, grep ×1)']);
  assert.match(screen, /session [0-9a-f]{8} · 8 messages/);
  assert.match(screen, /Context .*% · [\d.]+k?\/32\.8k · compacts at 75%/);

  const bye = await quit(term);
  const id = /Session (\S+) is saved/.exec(bye)[1];

  // Everything is in the store, tool calls and results as blocks.
  const store = openStore(db);
  const [info] = store.listSessions({ projectPath: root });
  assert.equal(info.id, id);
  assert.equal(info.title, FIRST_PROMPT);
  assert.equal(info.messageCount, 8);
  const s = store.openSession(id);
  const blocks = s.messages().flatMap((m) => m.content.map((b) => b.type));
  assert.deepEqual(blocks.filter((b) => b === 'tool_use' || b === 'tool_result'), ['tool_use', 'tool_result', 'tool_use', 'tool_result', 'tool_use', 'tool_result']);
  assert.ok(s.envelopes().every((e) => e.context?.cwd === root && e.context?.platform === process.platform), 'each message says where it was written');
  const readResult = s.envelopes().find((e) => e.toolUseResults && Object.values(e.toolUseResults).some((r) => r.stdout?.startsWith('port: 8080')));
  assert.ok(readResult, 'the raw execution record of read_file is kept');
  store.close();

  // A new process: the screen shows the earlier conversation, tool calls and results included.
  await term.clear();
  agent('--continue', 5);
  const resumed = await ready(term);
  // Seed 003's resume summary, then the conversation.
  assertShowsInOrder(resumed, ['Session Resumed', `Session ID: ${id}`, `Title: ${FIRST_PROMPT}`, 'Total Interactions: 1', 'Context Usage:']);
  assertShowsInOrder(resumed, [...FIRST_TURN, '(list_dir ×1, read_file ×1, grep ×1)']);
  assert.match(resumed, new RegExp(`session ${id.slice(0, 8)} · 8 messages`));

  // The model is given the restored conversation: its count includes the first run's calls.
  const second = await converse(term, 'now look for "host"', 6);
  assertShowsInOrder(second, ['> now look for "host"', '● grep(pattern: "host", path: ".")', '⎿  notes.txt:2: host: localhost',
    'src/server.js:1: const host = "localhost";', '(list_dir ×2, read_file ×2, grep ×2)']);
  assert.match(second, new RegExp(`session ${id.slice(0, 8)} · 16 messages`));
  await quit(term);
});

test('--continue with nothing to continue, --resume with an id prefix, --resume with the picker, and --new', async (t) => {
  const { term, agent } = project(t);
  agent('--continue');
  assert.match(await ready(term), /No earlier session in this folder: this is a new one\./);
  await converse(term, FIRST_PROMPT, 3);
  const first = /Session (\S+) is saved/.exec(await quit(term))[1];

  await term.clear();
  agent('--new');
  assert.match(await ready(term), /New session\./);
  await converse(term, 'list "TODO" please', 3);
  const second = /Session (\S+) is saved/.exec(await quit(term))[1];
  assert.notEqual(first, second);

  // By prefix: the first session, though the second is newer.
  await term.clear();
  agent(`--resume ${first.slice(0, 13)}`);
  const byPrefix = await ready(term);
  assertShowsInOrder(byPrefix, FIRST_TURN);
  assert.doesNotMatch(byPrefix, /list "TODO" please/);
  await quit(term);

  // The picker lists both, newest first; Down then Enter resumes the older.
  await term.clear();
  agent('--resume');
  const picker = await term.waitFor(/Select a session to resume:[\s\S]*\[q\] Quit/);
  assertShowsInOrder(picker, ['▸ just now', '"list "TODO" please"', '8 messages', 'just now', `"${FIRST_PROMPT}"`, '8 messages']);
  term.press('Down');
  await term.waitFor(new RegExp(`▸ just now\\s+"${FIRST_PROMPT.replace(/"/g, '\\"')}"`));
  term.press('Enter');
  const picked = await ready(term);
  assertShowsInOrder(picked, FIRST_TURN);
  await quit(term);

  // q in the picker leaves without starting anything; an unknown id is an error.
  await term.clear();
  agent('--resume');
  await term.waitFor(/\[q\] Quit/);
  // The picker reads keys once Ink has put the terminal in raw mode, a moment after its first
  // frame; a key that moves the selection shows it does, so q is not echoed by the shell's tty.
  term.press('Down');
  await term.waitFor(new RegExp(`▸ just now\\s+"${FIRST_PROMPT.replace(/"/g, '\\"')}"`));
  term.press('q');
  await term.clear();
  agent('--resume ffffffff');
  await term.waitFor(/agent-modal: session not found: no session id is or starts with "ffffffff"/);
});

test('Ctrl-C in the middle of a reply: the cut-off message is kept, and --continue shows it interrupted', async (t) => {
  const { term, agent, db } = project(t, { delayMs: 200 });
  agent();
  await ready(term);
  term.type(FIRST_PROMPT);
  term.press('Enter');
  await term.waitFor(/● Let me read notes\.txt\./, { what: 'the second reply streaming' });
  term.press('C-c');
  await term.shellReady();
  const bye = term.screen();
  const id = /Session (\S+) is saved/.exec(bye)[1];

  const store = openStore(db);
  const envelopes = store.openSession(id).envelopes();
  store.close();
  const cut = envelopes.at(-1);
  assert.equal(cut.type, 'assistant');
  assert.equal(cut.status, 'interrupted');
  assert.match(cut.message.content[0].text, /^Let me read notes\.txt\./);
  // Ctrl-C may have come after the tool call began streaming: it is kept too, unanswered.
  const cutCalls = cut.message.content.filter((b) => b.type === 'tool_use').length;

  await term.clear();
  agent('--continue', 5);
  const resumed = await ready(term);
  assertShowsInOrder(resumed, ['● list_dir(path: ".")', '⎿  README.md', '● Let me read notes.txt.', '⎿  interrupted']);
  // The turn can be asked again; the model starts it afresh.
  await converse(term, FIRST_PROMPT, 1 + cutCalls + 3);
  await quit(term);
});

test('session commands in a real terminal: completion, /sessions, /session info, /debug context, /compact, /new and /resume', async (t) => {
  const { term, agent, db } = project(t);
  agent();
  await ready(term);
  // A command before the first prompt: there is no session yet.
  await command(term, '/session info', /There is no session yet: it starts with the first prompt\./);
  await converse(term, FIRST_PROMPT, 3);

  // "/" lists the commands under the prompt; Tab completes the first that fits.
  term.type('/');
  await term.waitFor(/\n> \/ ?\n {2}\/help +list the session commands\n {2}\/sessions +list this project's sessions/, { what: 'the completion list' });
  term.type('sess');
  await term.waitFor(/\n> \/sess ?\n {2}\/sessions +list this project's sessions, newest first\n {2}\/sessions all +list/, { what: 'the completions of /sess' });
  term.press('Tab');
  await term.waitFor(/\n> \/sessions ?\n {2}\/sessions +list/, { what: 'the line completed' });
  term.press('Enter');
  const listed = await term.waitFor(/([0-9a-f-]{36})\* read notes\.txt and look for "port"/, { what: 'the /sessions table' });
  const id = /([0-9a-f-]{36})\* read notes\.txt/.exec(listed)[1];
  assert.match(listed, /UPDATED +MSGS +TOOLS +STATUS +ID +TITLE/);
  await ready(term);

  const info = await command(term, '/session info', new RegExp(`Session ID: ${id}`));
  assertShowsInOrder(info, ['> /session info', 'interactions   1', 'tool calls     3', 'Usage by model', 'scripted-1: 4 requests', `Session ID: ${id}`]);

  // The last context built was for the turn's last reply: the 7 messages before it, all sent.
  const debug = await command(term, '/debug context', /Messages: 7 stored, 7 sent/);
  assertShowsInOrder(debug, ['> /debug context', 'Context for anthropic: strategy full-history', 'Budget: 32,768 window', 'Messages: 7 stored, 7 sent']);

  // /compact asks (two turns are kept, so a third is needed), y applies it.
  await converse(term, 'now look for "host"', 6);
  await converse(term, 'and "TODO"', 9);
  const full = meterTokens(term.screen());
  const asked = await command(term, '/compact', /Compact the session now\? \[y\/n\]/);
  assert.match(asked, /A compaction would summarize 8 older messages and keep the last 2 turns \(16 messages\) as they are\./);
  await command(term, 'y', /Compacted: 8 messages summarized \(1 summarizer call\); the context goes from [\d,]+ to [\d,]+ tokens\./);
  assert.doesNotMatch(term.screen(), /Compact the session now\?/, 'the question is answered');
  await term.waitFor((screen) => meterTokens(screen) < full, { what: `the meter to drop below ${full} tokens` });

  // /new starts afresh; /resume picks the first session again, with its resume summary.
  await command(term, '/new', /New session\.\n[\s\S]*new session · 0 messages/);
  await converse(term, 'list "TODO" please', 3);
  term.type('/resume');
  term.press('Enter');
  await term.waitFor(/Select a session to resume:[\s\S]*▸ just now +"list "TODO" please"[\s\S]*"read notes\.txt and look for "port""[\s\S]*\[q\] Quit/, { what: 'the picker' });
  term.press('Down');
  await term.waitFor(/▸ just now +"read notes\.txt/, { what: 'the first session picked' });
  term.press('Enter');
  // The transcript is drawn again from the store (the resume summary above it has scrolled off).
  const resumed = await ready(term, 'the resumed session');
  assertShowsInOrder(resumed, ['> and "TODO"', '(list_dir ×3, read_file ×3, grep ×3)']);
  assert.match(resumed, new RegExp(`session ${id.slice(0, 8)} · 24 messages`));
  await command(term, '/session info', new RegExp(`Session ID: ${id}\\n +Title: read notes\\.txt[^\\n]*\\n +Last Activity: [^\\n]*\\n +Total Interactions: 3`));
  await quit(term);

  // The compaction is in the store: later contexts start from its summary.
  const store = openStore(db);
  t.after(() => store.close());
  const s = store.openSession(id);
  const ctx = s.buildContext({ contextWindow: 32_768 });
  assert.equal(ctx.debug.boundary.trigger, 'manual');
  assert.equal(ctx.debug.summarizedMessageCount, 8);
  assert.equal(s.messages().length, 24, 'nothing is deleted');
  s.close();
});

test('past the compaction threshold the agent compacts by itself, says so, and the meter drops', async (t) => {
  const { term, agent, db } = project(t, { contextWindow: 2000 });
  agent();
  await ready(term);
  const first = await converse(term, FIRST_PROMPT, 3);
  assert.match(first, /Context .* 1\d% · \d+\/2k · compacts at 75%/);
  await converse(term, 'now look for "host"', 6);
  const third = await converse(term, 'and "TODO"', 9);
  assert.doesNotMatch(third, /Compacted automatically/);
  const before = Number(/Context \S+ (\d+)%/.exec(third)[1]);
  assert.ok(before > 50 && before < 75, `the third turn leaves the context at ${before}%, below the threshold`);
  // The fourth turn's calls pass 75% of the window: the agent compacts before the next
  // reply, and the model then sees the summary and the last turns.
  term.type('and "listen"');
  term.press('Enter');
  const compacted = await term.waitFor(/Compacted automatically: 16 messages summarized; the context went from [\d.]+k? to [\d.]+k? tokens\./, { what: 'the automatic compaction' });
  assertShowsInOrder(compacted, ['The context is past the compaction threshold: summarizing 16 older messages…', 'Compacted automatically']);
  const after = await ready(term, 'the end of the turn');
  assert.ok(Number(/Context \S+ (\d+)%/.exec(after)[1]) < before, 'the meter drops');
  await command(term, '/debug context', /Messages: .*16 summarized/);
  const id = /Session (\S+) is saved/.exec(await quit(term))[1];

  const store = openStore(db);
  t.after(() => store.close());
  const s = store.openSession(id);
  assert.equal(s.buildContext({ contextWindow: 2000 }).debug.boundary.trigger, 'threshold');
  assert.equal(s.messages().length, 32);
  s.close();
});
