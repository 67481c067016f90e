// The Claude Agent SDK messages test 54 drives through fromClaudeAgentSDK, typed with the
// installed SDK's own types: the test compiles this file with tsc, so a message that no
// longer matches SDKMessage (or a plug-in that no longer takes query()'s result) fails it.
import type { Query, SDKMessage, SDKResultSuccess } from '@anthropic-ai/claude-agent-sdk';
import type { Session, fromClaudeAgentSDK } from '../../dist/index';

/** The plug-in takes what query() returns and yields the SDK's own messages. */
export type Relayed = (record: typeof fromClaudeAgentSDK, session: Session, query: Query) => AsyncGenerator<SDKMessage, void, undefined>;
export const relay: Relayed = (record, session, query) => record(session, query);

const session_id = '5f0c2a1e-8d4b-4c3e-9a7f-1b2c3d4e5f60';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` as const;

function usage(input: number, output: number, cacheRead = 0, cacheWrite = 0) {
  return {
    input_tokens: input,
    output_tokens: output,
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
    cache_creation: null,
    server_tool_use: null,
    service_tier: 'standard' as const,
    inference_geo: null,
    iterations: null,
    speed: null,
    fallback_credit: null,
    output_tokens_details: null,
  };
}

/** totals is a result's usage: the SDK reports every field of it. */
function totals(input: number, output: number, cacheRead: number, cacheWrite: number) {
  return {
    ...usage(input, output, cacheRead, cacheWrite),
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: cacheWrite },
    server_tool_use: { web_fetch_requests: 0, web_search_requests: 0 },
    inference_geo: 'us',
    iterations: [],
    speed: 'standard' as const,
    output_tokens_details: { thinking_tokens: 40 },
  };
}

/** assistant is one SDK assistant message: the CLI sends one per content block, sharing the API message's id. */
function assistant(n: number, id: string, content: any[], parent: string | null, stop: 'end_turn' | 'tool_use' | null, u = usage(0, 0)): SDKMessage {
  return {
    type: 'assistant',
    message: {
      id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content,
      stop_reason: stop, stop_sequence: null, usage: u, container: null, context_management: null, stop_details: null, diagnostics: null,
    },
    parent_tool_use_id: parent,
    uuid: uuid(n),
    session_id,
  };
}

function user(n: number, content: any, parent: string | null, toolUseResult?: unknown): SDKMessage {
  return {
    type: 'user', message: { role: 'user', content }, parent_tool_use_id: parent, uuid: uuid(n), session_id,
    ...(toolUseResult === undefined ? {} : { tool_use_result: toolUseResult }),
  };
}

export const init: SDKMessage = {
  type: 'system', subtype: 'init', apiKeySource: 'user', claude_code_version: '2.1.0', cwd: '/work/project',
  tools: ['Read', 'Task'], mcp_servers: [], model: 'claude-sonnet-4-5', permissionMode: 'default',
  slash_commands: [], output_style: 'default', skills: [], plugins: [], uuid: uuid(1), session_id,
};

export const result: SDKResultSuccess = {
  type: 'result', subtype: 'success', duration_ms: 5120, duration_api_ms: 4380, is_error: false, num_turns: 3,
  result: 'The port is 8080.', stop_reason: 'end_turn', total_cost_usd: 0.0421,
  usage: totals(3200, 410, 1800, 600), modelUsage: {}, permission_denials: [], uuid: uuid(99), session_id,
};

/** A run: thinking, text and a Task call in one API message; the subagent reads a file; the answer after a compaction. */
export const conversation: SDKMessage[] = [
  init,
  assistant(2, 'msg_01', [{ type: 'thinking', thinking: 'A subagent should read it.', signature: 'EqQBsig' }], null, null),
  assistant(3, 'msg_01', [{ type: 'text', text: 'Let me ask a subagent.', citations: null }], null, null),
  assistant(4, 'msg_01', [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'Read config.json' } }], null, 'tool_use', usage(1200, 90, 0, 600)),
  user(5, [{ type: 'text', text: 'Read config.json' }], 'toolu_task'),
  assistant(6, 'msg_sub1', [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: 'config.json' } }], 'toolu_task', 'tool_use', usage(400, 30)),
  user(7, [{ type: 'tool_result', tool_use_id: 'toolu_read', content: '{"port": 8080}' }], 'toolu_task'),
  assistant(8, 'msg_sub2', [{ type: 'text', text: 'It sets port 8080.', citations: null }], 'toolu_task', 'end_turn', usage(450, 12)),
  user(9, [{ type: 'tool_result', tool_use_id: 'toolu_task', content: [{ type: 'text', text: 'It sets port 8080.' }] }], null,
    { status: 'completed', totalDurationMs: 2100, totalTokens: 892 }),
  {
    type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger: 'auto', pre_tokens: 150000, post_tokens: 9000 },
    uuid: uuid(10), session_id,
  },
  assistant(11, 'msg_02', [{ type: 'text', text: 'The port is 8080.', citations: null }], null, 'end_turn', usage(1150, 278, 1800, 0)),
  result,
];

/** A reply streamed as partials (includePartialMessages), then its complete message, then the result. */
export const partials: SDKMessage[] = [
  { type: 'stream_event', event: { type: 'message_start', message: { id: 'msg_03', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: usage(500, 1), container: null, context_management: null, stop_details: null, diagnostics: null } }, parent_tool_use_id: null, uuid: uuid(20), session_id },
  { type: 'stream_event', event: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } }, parent_tool_use_id: null, uuid: uuid(21), session_id },
  { type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Port ' } }, parent_tool_use_id: null, uuid: uuid(22), session_id },
  { type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '8080.' } }, parent_tool_use_id: null, uuid: uuid(23), session_id },
  { type: 'stream_event', event: { type: 'content_block_stop', index: 0 }, parent_tool_use_id: null, uuid: uuid(24), session_id },
  { type: 'stream_event', event: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null, container: null, stop_details: null }, usage: { input_tokens: 500, output_tokens: 6, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, server_tool_use: null, iterations: null, fallback_credit: null, output_tokens_details: null }, context_management: null }, parent_tool_use_id: null, uuid: uuid(25), session_id },
  { type: 'stream_event', event: { type: 'message_stop' }, parent_tool_use_id: null, uuid: uuid(26), session_id },
  assistant(27, 'msg_03', [{ type: 'text', text: 'Port 8080.', citations: null }], null, 'end_turn', usage(500, 6)),
  { ...result, num_turns: 1, total_cost_usd: 0.003, usage: totals(500, 6, 0, 0), uuid: uuid(28) },
];
