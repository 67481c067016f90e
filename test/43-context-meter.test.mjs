// <ContextMeter> and the kit's formatting of times and token counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from './helpers/common.mjs';
import { recordSeed000, SEED000_TRACKER } from './helpers/fixtures.mjs';

// Colours are part of what the meter says: have chalk emit them though stdout is no terminal.
// Set before Ink (and chalk) load, hence the dynamic imports.
process.env.FORCE_COLOR = '1';
const { kit, h, render, frame, waitFor } = await import('./helpers/ink.mjs');
const { Text } = await import('ink');

const { ContextMeter, formatRelativeTime, formatTokens, usePersistentSession } = kit;

function meter(t, props) {
  const ui = render(h(ContextMeter, props));
  t.after(() => ui.unmount());
  return frame(ui);
}

/** bar is the meter's bar: the run of cells and the threshold mark. */
const bar = (text) => /[█░│]+/.exec(text)[0];

test('the bar fills with the share of the window used, the threshold marked where compaction starts', (t) => {
  const text = meter(t, { tokens: 16_384, contextWindow: 32_768, width: 20 });
  assert.equal(bar(text), '██████████░░░░░│░░░░░');
  assert.equal(text, 'Context ██████████░░░░░│░░░░░ 50% · 16.4k/32.8k · compacts at 75%');
});

test('the threshold moves with its prop; past it, compaction is due; at the window, it is full', (t) => {
  assert.equal(bar(meter(t, { tokens: 60_000, contextWindow: 200_000, threshold: 0.5, width: 10 })), '███░░│░░░░░');
  const due = meter(t, { tokens: 160_000, contextWindow: 200_000, width: 20 });
  assert.equal(bar(due), '███████████████│█░░░░');
  assert.match(due, /80% · 160k\/200k · compaction due \(75%\)$/);
  const full = meter(t, { tokens: 250_000, contextWindow: 200_000, width: 20 });
  assert.equal(bar(full), '███████████████│█████');
  assert.match(full, /125% · 250k\/200k · window full$/);
});

test('colours: green below the threshold, yellow from it, red when full', (t) => {
  const colours = (props) => {
    const ui = render(h(ContextMeter, { contextWindow: 100, width: 10, ...props }));
    t.after(() => ui.unmount());
    return ui.lastFrame();
  };
  assert.match(colours({ tokens: 10 }), /\u001B\[32m█/);
  assert.match(colours({ tokens: 80 }), /\u001B\[33m█/);
  assert.match(colours({ tokens: 100 }), /\u001B\[31m█/);
});

test('without a known window it shows the count alone; odd input does not break it', (t) => {
  assert.equal(meter(t, { tokens: 1234 }), 'Context 1.2k tokens · window unknown');
  assert.equal(meter(t, { tokens: 1234, contextWindow: 0, label: 'Ctx' }), 'Ctx 1.2k tokens · window unknown');
  assert.equal(bar(meter(t, { tokens: -5, contextWindow: 100, width: 4 })), '░░░│░');
  assert.equal(bar(meter(t, { tokens: Number.NaN, contextWindow: 100, width: 4, threshold: 2 })), '░░░░│');
});

test('fed by usePersistentSession, it shows a resumed session\'s context size', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ contextWindow: 200_000 });
  recordSeed000(s);
  s.close();
  function Status({ sessionId }) {
    const { tokenUsage, status } = usePersistentSession({ store, sessionId });
    if (status !== 'idle') return h(Text, null, status);
    return h(ContextMeter, { tokens: tokenUsage.contextTokens, contextWindow: store.listSessions()[0].contextWindow, width: 10 });
  }
  const ui = render(h(Status, { sessionId: s.id }));
  t.after(() => ui.unmount());
  await waitFor(() => frame(ui).startsWith('Context'), { describe: () => frame(ui) });
  assert.equal(SEED000_TRACKER.contextTokens, 13_950);
  assert.equal(frame(ui), 'Context █░░░░░░░│░░ 7% · 14k/200k · compacts at 75%');
});

test('formatTokens writes counts short', () => {
  assert.deepEqual([0, 950, 999, 999.6, 1000, 13_950, 14_700, 99_960, 150_000, 999_499, 999_500, 1_234_567, -2500].map(formatTokens),
    ['0', '950', '999', '1k', '1k', '14k', '14.7k', '100k', '150k', '999k', '1M', '1.2M', '-2.5k']);
});

test('formatRelativeTime counts in local calendar days, as seed 004\'s picker shows them', () => {
  const now = new Date(2025, 11, 25, 15, 0, 0);
  const at = (...a) => formatRelativeTime(new Date(...a), now);
  assert.equal(at(2025, 11, 25, 14, 59, 30), 'just now');
  assert.equal(at(2025, 11, 25, 16, 0), 'just now', 'a time ahead of this clock');
  assert.equal(at(2025, 11, 25, 14, 15), '45 min ago');
  assert.equal(at(2025, 11, 25, 14, 0), 'Today 2:00 PM');
  assert.equal(at(2025, 11, 25, 0, 5), 'Today 12:05 AM');
  assert.equal(at(2025, 11, 25, 12, 0), 'Today 12:00 PM');
  assert.equal(at(2025, 11, 24, 23, 59), 'Yesterday');
  assert.equal(at(2025, 11, 23, 9, 0), 'Dec 23');
  assert.equal(at(2025, 0, 1, 0, 0), 'Jan 1');
  assert.equal(at(2024, 11, 31, 23, 0), 'Dec 31, 2024');
  assert.equal(formatRelativeTime(new Date(2025, 11, 25, 9, 30).toISOString(), now), 'Today 9:30 AM', 'ISO strings as listSessions() gives them');
  assert.equal(formatRelativeTime('not a date', now), 'unknown');
});
