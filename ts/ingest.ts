import { argTypeError } from './errors';
import { native, Handle } from './native';
import { toJSON, encode } from './serialize';
import { Pending, pending, TEXT, THINKING, TOOL_JSON } from './pending';
import type { StreamChunk } from './types';

/**
 * ingestChunk hands one chunk to the native session, field by field as plain strings:
 * crossing into native code costs per property, so objects never cross on this hot path.
 * Field checks happen natively and throw SessionError INVALID_CHUNK naming the field.
 */
export function ingestChunk(h: Handle, chunk: StreamChunk): void {
  const p = pending;
  if (typeof chunk !== 'object' || chunk === null) {
    throw argTypeError('chunk', 'an object with a "type"');
  }
  const c = chunk as Record<string, any>;
  switch (c.type) {
    case 'text':
      return delta(h, p, TEXT, c.text);
    case 'thinking':
      return delta(h, p, THINKING, c.thinking);
    case 'tool_use_delta':
      return delta(h, p, TOOL_JSON, c.partialJson);
  }
  switch (c.type) {
    case 'signature':
      return native.ingestSignature(h, c.signature);
    case 'tool_use_start':
      return native.ingestToolUseStart(h, c.id, c.name);
    case 'tool_use':
      return native.ingestToolUse(h, c.id, c.name, c.input === undefined ? undefined : encode(c.input));
    case 'tool_result':
      return native.ingestToolResult(h, c.toolUseId, contentJSON(c.content), c.isError,
        c.raw === undefined || c.raw === null ? undefined : encode(c.raw));
    case 'message_start':
      return native.ingestMessageStart(h, c.id, c.model, c.provider, c.requestId, messageState(c));
    case 'done':
      return native.ingestDone(h, c.stopReason, c.stopSequence, c.usage == null ? undefined : encode(c.usage), c.id, c.model);
    case 'redacted_thinking':
      return native.ingestRedactedThinking(h, c.data);
    case 'error':
      return native.ingestError(h, c.message);
    case 'block':
      return native.ingestBlock(h, toJSON(c.block));
    case 'block_start':
      return native.ingestBlockStart(h, toJSON(c.block));
    case 'block_fields':
      return native.ingestBlockFields(h, toJSON(c.fields));
    default:
      // Only a string type is quoted: String() of a deeply nested array would overflow the stack.
      native.rejectChunk(typeof c.type === 'string' ? c.type : `(${typeof c.type})`);
  }
}

/** delta joins a stream delta to the run going on, or crosses with it and starts a run. */
function delta(h: Handle, p: Pending, kind: (h: Handle, text: string) => void, text: unknown): void {
  if (p.delta(h, kind, text)) return;
  p.flush();
  kind(h, text as string);
  p.started(h, kind);
}

function contentJSON(content: unknown): string | undefined {
  if (content === undefined) return undefined;
  return typeof content === 'string' ? encode(content) : toJSON(content);
}

/** The per-message state fields a message_start chunk may carry (see MessageOptions). */
const STATE_FIELDS = ['isSidechain', 'agentId', 'parentToolUseId', 'context', 'todos', 'thinkingMetadata'];

/** messageState serialises the state fields of a chunk, or gives undefined when it has none. */
function messageState(c: Record<string, unknown>): string | undefined {
  let state: Record<string, unknown> | undefined;
  for (const key of STATE_FIELDS) {
    if (c[key] !== undefined) (state ??= {})[key] = c[key];
  }
  return state && encode(state);
}
