// The conversation the torture tests stream: turns of a coding agent with thinking, text,
// streamed tool calls and large non-ASCII tool outputs, the same for the same seed. Each
// step is one call (appendUserMessage or ingest) and says how far the conversation has come
// once it is recorded, so that a check can tell what must survive a kill after it.

// `node --test test/` runs every script under test/ as a test file; this one only exports.

/** mulberry32 is a small seeded random generator: the same seed, the same conversation. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces of text from several scripts, with quotes, backslashes, tabs and newlines: what
// breaks an encoder that gets escaping or multi-byte characters wrong.
const PIECES = [
  'ファイルを読み込みます', '日本語のテキスト', 'Ünïcödé façade', 'emoji 🚀🧪✅', 'שלום עולם', 'Привет, мир',
  'quote " and \\ backslash', 'tab\there', 'line\nbreak', 'e\u0301 combining', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 4-byte', 'plain ascii words',
];

function words(rand, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(PIECES[Math.floor(rand() * PIECES.length)]);
  return out.join(' ');
}

/** splitText cuts text into deltas of 1 to 12 characters (whole code points). */
function splitText(rand, text) {
  const chars = [...text];
  const parts = [];
  for (let i = 0; i < chars.length;) {
    const n = 1 + Math.floor(rand() * 12);
    parts.push(chars.slice(i, i + n).join(''));
    i += n;
  }
  return parts;
}

/** toolOutput is a tool's output of about `size` characters, non-ASCII throughout. */
function toolOutput(rand, size) {
  let out = '';
  for (let line = 0; out.length < size; line++) out += `${String(line).padStart(5, '0')}│ ${words(rand, 4)}\n`;
  return out;
}

/**
 * script returns the steps of `turns` turns. A step is { user: text } or { chunk }, with
 * `at`: after it, message `msg` has blocks up to `block`, the last of which has streamed
 * at least `len` characters (-1 when it is whole).
 */
export function script(seed, turns) {
  const rand = mulberry32(seed);
  const steps = [];
  let msg = -1;
  const push = (step, block, len = -1) => steps.push({ ...step, at: { msg, block, len } });
  const stream = (type, field, text, block) => {
    let len = 0;
    for (const part of splitText(rand, text)) {
      len += part.length;
      push({ chunk: { type, [field]: part } }, block, len);
    }
  };
  for (let turn = 0; turn < turns; turn++) {
    msg++;
    push({ user: `turn ${turn}: ${words(rand, 3)}` }, 0);

    msg++;
    push({ chunk: { type: 'message_start', id: `msg_${seed}_${turn}`, model: 'claude-sonnet-4-5' }, pause: true }, -1);
    stream('thinking', 'thinking', words(rand, 6), 0);
    push({ chunk: { type: 'signature', signature: `sig_${seed}_${turn}_${'A'.repeat(40)}` } }, 0);
    stream('text', 'text', words(rand, 5), 1);
    const id = `toolu_${seed}_${turn}`;
    push({ chunk: { type: 'tool_use_start', id, name: 'bash' } }, 1); // ends the text block
    const input = JSON.stringify({ command: `grep -rn "${words(rand, 1)}" src/`, timeout: 30 });
    for (const part of splitText(rand, input)) push({ chunk: { type: 'tool_use_delta', partialJson: part } }, 2, 0);
    push({ chunk: { type: 'done', stopReason: 'tool_use', usage: { input_tokens: 1000 + turn, output_tokens: 50 } } }, 2);

    msg++;
    // Outputs above about 10 KB go to the blob table; smaller ones stay inline.
    const size = rand() < 0.5 ? 500 + Math.floor(rand() * 4000) : 12000 + Math.floor(rand() * 30000);
    const output = toolOutput(rand, size);
    push({ chunk: { type: 'tool_result', toolUseId: id, content: output, raw: { stdout: output, exitCode: 0, durationMs: 12 } } }, 0);

    msg++;
    stream('text', 'text', words(rand, 8), 0);
    push({ chunk: { type: 'done', stopReason: 'end_turn', usage: { input_tokens: 2000 + turn, output_tokens: 80 } } }, 0);
  }
  return steps;
}

/** apply records one step in session s. */
export function apply(s, step) {
  if (step.user !== undefined) s.appendUserMessage(step.user);
  else s.ingest(step.chunk);
}
