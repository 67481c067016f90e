// recordToolRound streams one round into a session as an agent's loop would: a user's
// question, an assistant turn with thinking and a tool call whose input arrives in two
// pieces, the tool's result, and the answer. The child processes that run the platform
// packages on other CPUs and systems (arm64 under qemu, Windows under Wine) each record it,
// with a file path of their system as the tool's input.
function recordToolRound(session, file) {
  const input = JSON.stringify({ path: file });
  session.appendUserMessage('Read the config file and tell me what port it uses');
  session.ingest({ type: 'message_start', id: 'msg_01', model: 'claude-sonnet-4-5' });
  session.ingest({ type: 'thinking', thinking: 'I should read the config.' });
  session.ingest({ type: 'signature', signature: 'EqQBCgIYAhIM' });
  session.ingest({ type: 'tool_use_start', id: 'toolu_01', name: 'read_file' });
  session.ingest({ type: 'tool_use_delta', partialJson: input.slice(0, 12) });
  session.ingest({ type: 'tool_use_delta', partialJson: input.slice(12) });
  session.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 1520, output_tokens: 87 } });
  session.ingest({ type: 'tool_result', toolUseId: 'toolu_01', content: '{"port": 8080}' });
  session.ingest({ type: 'text', text: 'The config uses port 8080.' });
  session.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 1650, output_tokens: 12 } });
}

/**
 * assertToolRound checks what a reading process sent back ({ messages, tokens }) against
 * the round recordToolRound(session, file) recorded.
 */
function assertToolRound(back, file) {
  const assert = require('node:assert/strict');
  assert.deepEqual(back.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  assert.deepEqual(back.messages[1].content, [
    { type: 'thinking', thinking: 'I should read the config.', signature: 'EqQBCgIYAhIM' },
    { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: file } },
  ]);
  assert.deepEqual(back.messages[2].content, [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"port": 8080}', is_error: false }]);
  assert.equal(back.messages[3].content[0].text, 'The config uses port 8080.');
  assert.equal(back.tokens.inputTokens, 1520 + 1650);
  assert.equal(back.tokens.outputTokens, 87 + 12);
}

module.exports = { recordToolRound, assertToolRound };
