// ToolCall is a tool_use block with what came of it: its input, its result (marked when an
// error), and the subagent it started, nested inside it.
import { useContext } from 'preact/hooks';
import type { ToolUseBlock } from '../api-types';
import type { PairedResult } from '../conversation';
import { ConversationContext } from './conversation-context';
import { LongText } from './LongText';
import { Sidechain } from './Sidechain';
import { ToolResult } from './ToolResult';

/** The input fields that say in one line what a call does, in the order they are looked for. */
const HEADLINE_FIELDS = ['command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt'];

/** headline is one line of a call's input for its title. */
function headline(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const fields = input as Record<string, unknown>;
  for (const key of HEADLINE_FIELDS) {
    const value = fields[key];
    if (typeof value === 'string' && value) return value.split('\n')[0].slice(0, 200);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(' ').slice(0, 200);
  }
  return '';
}

/** failed: the result is an error, by its flag or by the exit code the tool recorded. */
function failed(paired: PairedResult | undefined, callId: string): boolean {
  if (!paired) return false;
  if (paired.block.is_error === true) return true;
  const exitCode = paired.envelope.toolUseResults?.[callId]?.exitCode;
  return typeof exitCode === 'number' && exitCode !== 0;
}

export function ToolCall({ call }: { call: ToolUseBlock }) {
  const conversation = useContext(ConversationContext);
  const paired = conversation.results.get(call.id);
  const chain = conversation.sidechains.get(call.id);
  const error = failed(paired, call.id);
  const input = call.raw_input ?? JSON.stringify(call.input, null, 2);
  return (
    <div class={'tool-call' + (error ? ' error' : '')} data-testid="tool-call" data-name={call.name} data-error={error ? 'true' : 'false'}>
      <div class="tool-head">
        <span class="tool-name">{call.name}</span>
        <code class="tool-headline">{headline(call.input)}</code>
        {error && <span class="badge status-error">error</span>}
        {!paired && <span class="badge">no result loaded</span>}
      </div>
      <details class="tool-input">
        <summary>input</summary>
        <LongText text={input} />
        {call.input_error && <p class="error-text">{call.input_error}</p>}
      </details>
      {chain && <Sidechain records={chain} />}
      {paired && <ToolResult result={paired.block} execution={paired.envelope.toolUseResults?.[call.id]} error={error} />}
    </div>
  );
}
