// The Ink side of the session commands: useSessionCommands routing input lines (commands run,
// confirmations asked and answered, actions handed to the app, other lines left for the
// model), <CommandCompletions> as "/" is typed, and <ContextMeter> fed by a built context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from './helpers/common.mjs';
import { conversation, recordingSummarizer, sessionWith } from './helpers/context.mjs';

const { kit, h, render, frame, waitFor, waitForFrame } = await import('./helpers/ink.mjs');
const React = (await import('react')).default;
const { Text } = await import('ink');
const { useSessionCommands, CommandCompletions, ContextMeter } = kit;

/**
 * mount renders a component using useSessionCommands with `options`; it returns the hook's
 * latest value, the results and actions it reported, and the Ink instance.
 */
function mount(t, options) {
  const seen = { results: [], actions: [], hook: null };
  function Agent() {
    const [log, setLog] = React.useState([]);
    seen.hook = useSessionCommands({
      ...options,
      onResult: (r, line) => {
        seen.results.push({ line, ...r });
        setLog((l) => [...l, r.output.text]);
      },
      onAction: (a) => seen.actions.push(a),
    });
    const { pending, running } = seen.hook;
    return h(Text, null, [...log, running ? `running ${running}` : '', pending ? `? ${pending.question}` : ''].filter(Boolean).join('\n'));
  }
  const ui = render(h(Agent));
  t.after(() => ui.unmount());
  return { seen, ui };
}

test('useSessionCommands runs commands, leaves other lines to the model, and hands actions to the app', async (t) => {
  const { store, dir } = tempStore(t);
  const s = store.createSession({ projectPath: dir });
  s.appendUserMessage('first prompt');
  await s.flush();
  const { seen, ui } = mount(t, { store, session: s, projectPath: dir });

  assert.equal(await seen.hook.submit('please fix the build'), false);
  assert.equal(seen.results.length, 0);

  assert.equal(await seen.hook.submit('/rename Build fixes'), true);
  await waitForFrame(ui, /^Renamed this session: Build fixes$/);
  assert.equal(store.sessionInfo(s.id).title, 'Build fixes');

  assert.equal(await seen.hook.submit('/new'), true);
  assert.deepEqual(seen.actions, [{ type: 'new-session' }]);

  // An error is a result too, with its code; nothing is thrown at the app.
  assert.equal(await seen.hook.submit('/nope'), true);
  assert.equal(seen.results.at(-1).error.code, 'UNKNOWN_COMMAND');
  await waitForFrame(ui, /Unknown command \/nope\./);
  s.close();
});

test('a confirmation: /compact asks, "y" applies it; another line cancels and goes to the model', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(40));
  const z = recordingSummarizer();
  const { seen, ui } = mount(t, { store, session: s, summarize: z.summarize });

  // Answered with a prompt: not done, and the prompt is the model's.
  assert.equal(await seen.hook.submit('/compact'), true);
  await waitForFrame(ui, /\? Compact the session now\?$/);
  assert.equal(await seen.hook.submit('what changed in main.go?'), false);
  await waitFor(() => seen.hook.pending === null);
  // "n" says it was not done.
  await seen.hook.submit('/compact');
  await waitFor(() => seen.hook.pending);
  assert.equal(await seen.hook.submit('n'), true);
  await waitForFrame(ui, /Not done\.$/);
  assert.equal(z.calls.length, 0);
  assert.equal((await s.compact({ dryRun: true })).plan.boundary, undefined, 'nothing was compacted');

  // "yes" runs /compact --apply.
  await seen.hook.submit('/compact');
  await waitFor(() => seen.hook.pending);
  assert.equal(await seen.hook.submit('yes'), true);
  await waitForFrame(ui, /Compacted: \d+ messages summarized/);
  assert.ok(z.calls.length > 0);
  assert.equal(seen.hook.pending, null);
  assert.equal(seen.results.at(-1).command, '/compact --apply');
  assert.deepEqual(seen.actions, [], 'a confirmation is not the app\'s action');
  s.close();
});

test('<CommandCompletions> lists the commands that fit what is typed, nothing for a prompt', (t) => {
  const show = (props) => {
    const ui = render(h(CommandCompletions, props));
    t.after(() => ui.unmount());
    return frame(ui);
  };
  const all = show({ input: '/' }).split('\n');
  assert.equal(all.length, 9);
  assert.match(all[0], /^ {2}\/help +list the session commands$/);
  assert.equal(all.at(-1), '  … 9 more');
  assert.deepEqual(show({ input: '/session ', maxRows: 10 }).split('\n').map((l) => l.trim().split(/ {2,}/)[0]),
    ['/session info', '/session export [file]', '/session archive']);
  assert.match(show({ input: '/rew' }), /^ {2}\/rewind \[n\] {2}go back to before the last n prompts/);
  assert.equal(show({ input: 'fix it' }), '');
  assert.equal(show({ input: '/zzz' }), '');
});

test('<ContextMeter context> shows the builder\'s utilisation and its compactionDue', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(160));
  const full = s.buildContext({ contextWindow: 200_000 }).budget.conversationTokens;
  const show = (context) => {
    const ui = render(h(ContextMeter, { context, width: 20 }));
    t.after(() => ui.unmount());
    return frame(ui);
  };

  const roomy = s.buildContext({ contextWindow: 200_000 });
  assert.equal(roomy.compactionDue, false);
  assert.match(show(roomy), new RegExp(`^Context \\S+ ${Math.round(roomy.budget.utilizationPercent)}% · [\\d.]+k/200k · compacts at 75%$`));

  // The history takes 80% of this window: the builder says compaction is due.
  const tight = s.buildContext({ contextWindow: Math.ceil(full / 0.8) });
  assert.equal(tight.compactionDue, true);
  assert.match(show(tight), /^Context ███████████████│█░░░░ 8\d% · .* · compaction due \(75%\)$/);
  // At a higher threshold the builder says it is not due, and the meter follows it.
  const later = s.buildContext({ contextWindow: Math.ceil(full / 0.8), compactThreshold: 0.9 });
  assert.equal(later.compactionDue, false);
  assert.match(show(later), /8\d% · .* · compacts at 75%$/);
  s.close();
});
