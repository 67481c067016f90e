// Conversations the tests record, each with the structure it must come back as, written
// out by hand from the seed documents (not computed by sessionkeep).

// ---------------------------------------------------------------------------------------
// Seed 000: "Read the config file and tell me what port it uses".

export const SEED000_PROMPT = 'Read the config file and tell me what port it uses';
export const SEED000_RESULT = '{"port": 8080, "host": "localhost"}';
export const SEED000_RAW = {
  stdout: SEED000_RESULT,
  stderr: '',
  interrupted: false,
  isImage: false,
  durationMs: 12,
  exitCode: 0,
};
const SEED000_USAGE_1 = {
  input_tokens: 1520,
  output_tokens: 87,
  cache_read_input_tokens: 12000,
  cache_creation_input_tokens: 300,
  service_tier: 'standard',
};
const SEED000_USAGE_2 = {
  input_tokens: 1650,
  output_tokens: 12,
  cache_read_input_tokens: 12300,
  cache_creation_input_tokens: 0,
};

/** The model's side of seed 000 as stream chunks, after the user's prompt. */
export const SEED000_CHUNKS = [
  { type: 'message_start', id: 'msg_01SeedConfigPort', model: 'claude-opus-4-5-20251101', provider: 'claude', requestId: 'req_011SeedConfigPort' },
  { type: 'thinking', thinking: 'The user wants the port. ' },
  { type: 'thinking', thinking: 'I should read the config file first.' },
  { type: 'signature', signature: 'EqQBCgIYAhIMSeedSignature000==' },
  { type: 'text', text: 'Let me read ' },
  { type: 'text', text: 'the config file.' },
  { type: 'tool_use_start', id: 'toolu_01ReadConfig', name: 'read_file' },
  { type: 'tool_use_delta', partialJson: '' },
  { type: 'tool_use_delta', partialJson: '{"path": "/etc/' },
  { type: 'tool_use_delta', partialJson: 'config.json"}' },
  { type: 'done', stopReason: 'tool_use', usage: SEED000_USAGE_1 },
  { type: 'tool_result', toolUseId: 'toolu_01ReadConfig', content: SEED000_RESULT, raw: SEED000_RAW },
  { type: 'text', text: 'The config uses ' },
  { type: 'text', text: 'port 8080.' },
  { type: 'done', stopReason: 'end_turn', usage: SEED000_USAGE_2 },
];

/** recordSeed000 records seed 000 into an empty session. */
export function recordSeed000(session) {
  session.appendUserMessage(SEED000_PROMPT);
  for (const chunk of SEED000_CHUNKS) session.ingest(chunk);
}

/** The blocks of seed 000, as messages() must return them. */
export const SEED000_MESSAGES = [
  { role: 'user', content: [{ type: 'text', text: SEED000_PROMPT }] },
  {
    role: 'assistant',
    id: 'msg_01SeedConfigPort',
    model: 'claude-opus-4-5-20251101',
    content: [
      {
        type: 'thinking',
        thinking: 'The user wants the port. I should read the config file first.',
        signature: 'EqQBCgIYAhIMSeedSignature000==',
      },
      { type: 'text', text: 'Let me read the config file.' },
      { type: 'tool_use', id: 'toolu_01ReadConfig', name: 'read_file', input: { path: '/etc/config.json' } },
    ],
    stop_reason: 'tool_use',
    usage: SEED000_USAGE_1,
  },
  {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'toolu_01ReadConfig', content: SEED000_RESULT, is_error: false }],
  },
  {
    role: 'assistant',
    content: [{ type: 'text', text: 'The config uses port 8080.' }],
    stop_reason: 'end_turn',
    usage: SEED000_USAGE_2,
  },
];

export const SEED000_TURNS = [{ index: 0, startIndex: 0, endIndex: 3 }];

export const SEED000_TRACKER = {
  inputTokens: 1520 + 1650,
  outputTokens: 87 + 12,
  cacheReadInputTokens: 12000 + 12300,
  cacheCreationInputTokens: 300,
  contextTokens: 1650 + 12300 + 0, // the last request's input + cache tokens
};

// ---------------------------------------------------------------------------------------
// Every block type, a 5 MB tool output and raw bytes.

/** Eight bytes of a PNG signature and the start of its IHDR chunk. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
export const PNG_B64 = PNG.toString('base64');
export const PDF = Buffer.from('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n', 'latin1');
export const PDF_B64 = PDF.toString('base64');

let big;
/** bigOutput is a tool output of at least 5 MiB of UTF-8, with non-ASCII characters. */
export function bigOutput() {
  if (big) return big;
  const lines = [];
  let bytes = 0;
  for (let i = 0; bytes < 5 * 1024 * 1024; i++) {
    const line = `${String(i).padStart(6, '0')} compile src/module_${i % 97}.ts → dist/module_${i % 97}.js ✓ (${i % 13} ms) «ok» \u00e9\u00e8\n`;
    lines.push(line);
    bytes += Buffer.byteLength(line);
  }
  big = lines.join('');
  return big;
}

const EVERY_USAGE_1 = { input_tokens: 2000, output_tokens: 300, cache_read_input_tokens: 0, cache_creation_input_tokens: 1800 };
const EVERY_USAGE_2 = { input_tokens: 2500, output_tokens: 40, cache_read_input_tokens: 1800, cache_creation_input_tokens: 0 };

const UNKNOWN_BLOCK = { type: 'server_citation_v9', ref: 7, nested: { keep: [1, 'two', { three: 3 }], empty: {} }, flag: true, none: null };
const FILE_SOURCE_DOC = { type: 'document', source: { type: 'file', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' }, title: 'uploaded.pdf' };

const FIRST_PROMPT = [
  { type: 'text', text: 'Review these attachments → and tell me what is wrong ✓' },
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
  { type: 'image', source: { type: 'url', url: 'https://example.com/diagram.png' } },
  { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF_B64 }, title: 'spec.pdf', context: 'The product spec, v2' },
  { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain text document ✓\nsecond line' }, title: 'notes.txt' },
  FILE_SOURCE_DOC,
  UNKNOWN_BLOCK,
];

function rawBig() {
  return { stdout: bigOutput(), stderr: '', interrupted: false, isImage: false, durationMs: 840, exitCode: 0 };
}
const RAW_SHOT = { stdout: '', stderr: '', interrupted: false, isImage: true, durationMs: 120, exitCode: 0 };
const RAW_FAIL = { stdout: '', stderr: 'exit status 1 → failed', interrupted: false, isImage: false, durationMs: 3, exitCode: 1 };
const SHOT_CONTENT = [
  { type: 'text', text: 'Screenshot taken' },
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
];

/**
 * recordEveryBlock records, into an empty session, a conversation holding every block type:
 * user attachments (images, documents, an unknown block), thinking with and without a
 * signature, redacted thinking, text, three tool uses, their results (a 5 MB string, blocks
 * with an image, an error), a closing answer, and a prompt whose attachments are raw bytes.
 */
export function recordEveryBlock(session) {
  session.appendUserMessage(FIRST_PROMPT);
  for (const chunk of [
    { type: 'message_start', id: 'msg_all_1', model: 'claude-sonnet-4-5', provider: 'claude', requestId: 'req_all_1' },
    { type: 'thinking', thinking: 'First, look at ' },
    { type: 'thinking', thinking: 'the attachments.' },
    { type: 'redacted_thinking', data: 'RXJlZGFjdGVkIHRoaW5raW5nIGJ5dGVz' },
    { type: 'thinking', thinking: 'Then run the tools.' },
    { type: 'signature', signature: 'sig_all_2==' },
    { type: 'text', text: 'Running three tools.' },
    { type: 'tool_use', id: 'toolu_big', name: 'bash', input: { command: 'cat build.log', timeout: 30 } },
    { type: 'tool_use', id: 'toolu_shot', name: 'screenshot', input: {} },
    { type: 'tool_use', id: 'toolu_fail', name: 'bash', input: { command: 'false', env: null, args: [] } },
    { type: 'done', stopReason: 'tool_use', usage: EVERY_USAGE_1 },
    { type: 'tool_result', toolUseId: 'toolu_big', content: bigOutput(), raw: rawBig() },
    { type: 'tool_result', toolUseId: 'toolu_shot', content: SHOT_CONTENT, raw: RAW_SHOT },
    { type: 'tool_result', toolUseId: 'toolu_fail', content: 'command exited with code 1', isError: true, raw: RAW_FAIL },
    { type: 'text', text: 'All done: ' },
    { type: 'text', text: '✓ build ok, one failure →.' },
    { type: 'done', stopReason: 'end_turn', usage: EVERY_USAGE_2 },
  ]) {
    session.ingest(chunk);
  }
  // Raw bytes: a Buffer under a "raw" source, and a Uint8Array under a base64 one.
  session.appendUserMessage([
    { type: 'text', text: 'And these raw bytes?' },
    { type: 'image', source: { type: 'raw', media_type: 'image/png', data: PNG } },
    { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: new Uint8Array(PDF) }, title: 'raw.pdf' },
  ]);
}

/** What messages() must return for recordEveryBlock. */
export function everyBlockMessages() {
  return [
    { role: 'user', content: FIRST_PROMPT },
    {
      role: 'assistant',
      id: 'msg_all_1',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'First, look at the attachments.' },
        { type: 'redacted_thinking', data: 'RXJlZGFjdGVkIHRoaW5raW5nIGJ5dGVz' },
        { type: 'thinking', thinking: 'Then run the tools.', signature: 'sig_all_2==' },
        { type: 'text', text: 'Running three tools.' },
        { type: 'tool_use', id: 'toolu_big', name: 'bash', input: { command: 'cat build.log', timeout: 30 } },
        { type: 'tool_use', id: 'toolu_shot', name: 'screenshot', input: {} },
        { type: 'tool_use', id: 'toolu_fail', name: 'bash', input: { command: 'false', env: null, args: [] } },
      ],
      stop_reason: 'tool_use',
      usage: EVERY_USAGE_1,
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_big', content: bigOutput(), is_error: false },
        { type: 'tool_result', tool_use_id: 'toolu_shot', content: SHOT_CONTENT, is_error: false },
        { type: 'tool_result', tool_use_id: 'toolu_fail', content: 'command exited with code 1', is_error: true },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'text', text: 'All done: ✓ build ok, one failure →.' }],
      stop_reason: 'end_turn',
      usage: EVERY_USAGE_2,
    },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'And these raw bytes?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF_B64 }, title: 'raw.pdf' },
      ],
    },
  ];
}

/** The raw execution records the tool_result envelope of recordEveryBlock carries. */
export function everyBlockToolUseResults() {
  return { toolu_big: rawBig(), toolu_shot: RAW_SHOT, toolu_fail: RAW_FAIL };
}

export const EVERY_TURNS = [
  { index: 0, startIndex: 0, endIndex: 3 },
  { index: 1, startIndex: 4, endIndex: 4 },
];

export const EVERY_TRACKER = {
  inputTokens: 4500,
  outputTokens: 340,
  cacheReadInputTokens: 1800,
  cacheCreationInputTokens: 1800,
  contextTokens: 2500 + 1800 + 0,
};
