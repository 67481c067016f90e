import { argTypeError } from './errors';
import { native, Handle } from './native';
import { toJSON } from './serialize';
import type { StreamChunk } from './types';

/**
 * ingestChunk hands one chunk to the native session, field by field as plain strings:
 * crossing into native code costs per property, so objects never cross on this hot path.
 * Field checks happen natively and throw SessionError INVALID_CHUNK naming the field.
 */
export function ingestChunk(h: Handle, chunk: StreamChunk): void {
  if (typeof chunk !== 'object' || chunk === null) {
    throw argTypeError('chunk', 'an object with a "type"');
  }
  const c = chunk as Record<string, any>;
  switch (c.type) {
    case 'text':
      return native.ingestText(h, c.text);
    case 'thinking':
      return native.ingestThinking(h, c.thinking);
    case 'signature':
      return native.ingestSignature(h, c.signature);
    case 'tool_use_delta':
      return native.ingestToolUseDelta(h, c.partialJson);
    case 'tool_use_start':
      return native.ingestToolUseStart(h, c.id, c.name);
    case 'tool_use':
      return native.ingestToolUse(h, c.id, c.name, c.input === undefined ? undefined : JSON.stringify(c.input));
    case 'tool_result':
      return native.ingestToolResult(h, c.toolUseId, contentJSON(c.content), c.isError,
        c.raw === undefined || c.raw === null ? undefined : JSON.stringify(c.raw));
    case 'message_start':
      return native.ingestMessageStart(h, c.id, c.model, c.provider, c.requestId, messageState(c));
    case 'done':
      return native.ingestDone(h, c.stopReason, c.stopSequence, c.usage == null ? undefined : JSON.stringify(c.usage), c.id, c.model);
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
      native.rejectChunk(String(c.type));
  }
}

function contentJSON(content: unknown): string | undefined {
  if (content === undefined) return undefined;
  return typeof content === 'string' ? JSON.stringify(content) : toJSON(content);
}

/** The per-message state fields a message_start chunk may carry (see MessageOptions). */
const STATE_FIELDS = ['isSidechain', 'agentId', 'parentToolUseId', 'context', 'todos', 'thinkingMetadata'];

/** messageState serialises the state fields of a chunk, or gives undefined when it has none. */
function messageState(c: Record<string, unknown>): string | undefined {
  let state: Record<string, unknown> | undefined;
  for (const key of STATE_FIELDS) {
    if (c[key] !== undefined) (state ??= {})[key] = c[key];
  }
  return state && JSON.stringify(state);
}
