// w1-turn.mjs: one turn of the shared bench's W1 shape, as the benchmarks that write many
// sessions at once record it (bench/writers.mjs, bench/scale.mjs), and the quantile of
// their flush times.

/** turn records one turn of W1's shape into session s; it returns the bytes of text sent. */
export function turn(s, rand, n) {
  const prompt = `turn ${n}: ${'please look at the parser again '.repeat(6)}`;
  s.appendUserMessage(prompt);
  s.ingest({ type: 'message_start', id: `msg_${rand}_${n}`, model: 'claude-sonnet-4-5' });
  let bytes = prompt.length;
  for (let i = 0; i < 20; i++) { const t = `thinking step ${i} of the plan, `; bytes += t.length; s.ingest({ type: 'thinking', thinking: t }); }
  s.ingest({ type: 'signature', signature: 'E'.repeat(300) });
  for (let i = 0; i < 40; i++) { const t = `word${i} of the answer `; bytes += t.length; s.ingest({ type: 'text', text: t }); }
  const id = `toolu_${rand}_${n}`;
  s.ingest({ type: 'tool_use_start', id, name: 'Read' });
  s.ingest({ type: 'tool_use_delta', partialJson: JSON.stringify({ file_path: `/src/mod${n}.ts` }) });
  s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 1000, output_tokens: 200 } });
  const output = `${n}→ export function handler${n}(req, res) { return serve(req, res); }\n`.repeat(90);
  bytes += output.length;
  s.ingest({ type: 'tool_result', toolUseId: id, content: output });
  s.ingest({ type: 'message_start', id: `msg_${rand}_${n}_b`, model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: 'Done: the handler is in place.' });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 1200, output_tokens: 20 } });
  return bytes + 30;
}

/** quantile is the q-th quantile (0 to 1) of xs, which it sorts in place. */
export const quantile = (xs, q) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
