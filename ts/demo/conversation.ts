/**
 * seedConversation is seed 000's example as the stream chunks an agent receives: the
 * assistant thinks, says it will read the config file, calls read_file, gets the result,
 * and answers with the port.
 */
export const seedConversation = [
  { type: 'message_start', id: 'msg_01Wk7SCqoakQaEmx7FHphZRJ', model: 'claude-opus-4-5-20251101', requestId: 'req_011CWPLKJZcigRWVriKduWSr' },
  { type: 'thinking', thinking: 'The user wants the port. ' },
  { type: 'thinking', thinking: 'I should read the config file first.' },
  { type: 'signature', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
  { type: 'text', text: 'Let me read ' },
  { type: 'text', text: 'the config file.' },
  { type: 'tool_use_start', id: 'toolu_01ABC123', name: 'read_file' },
  { type: 'tool_use_delta', partialJson: '{"path": "/etc/' },
  { type: 'tool_use_delta', partialJson: 'config.json"}' },
  { type: 'done', stopReason: 'tool_use', usage: { input_tokens: 15847, output_tokens: 423, cache_read_input_tokens: 12500, cache_creation_input_tokens: 3000 } },
  {
    type: 'tool_result', toolUseId: 'toolu_01ABC123', content: '{"port": 8080, "host": "localhost"}',
    raw: { stdout: '{"port": 8080, "host": "localhost"}', stderr: '', interrupted: false, isImage: false, durationMs: 3, exitCode: 0 },
  },
  { type: 'message_start', id: 'msg_01Xy8TDrpbkRbFnx8GIqiSaK', model: 'claude-opus-4-5-20251101' },
  { type: 'text', text: 'The config uses port 8080.' },
  { type: 'done', stopReason: 'end_turn', usage: { input_tokens: 16310, output_tokens: 12, cache_read_input_tokens: 15847, cache_creation_input_tokens: 463 } },
];
