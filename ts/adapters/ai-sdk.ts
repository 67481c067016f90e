import type { Session } from '../session';
import type { Block, Envelope, StreamChunk, Usage } from '../types';
import { AdapterOptions, Handler, Recorder, StreamSource, errorMessage, isObject, num, pump, trackerUsage } from './common';
import { encode } from '../serialize';

/** One part of `streamText(...).fullStream` of the Vercel AI SDK (`ai`). */
export type AISDKStreamPart = { type: string };

/** AISDKPart is a part as the handler reads it: any field may be there. */
type AISDKPart = AISDKStreamPart & Record<string, any>;

/**
 * fromAISDKStream records the `fullStream` of a Vercel AI SDK `streamText()` call into
 * `session`. Each step becomes an assistant message (text, reasoning as thinking with its
 * signature, tool calls as tool_use) and the results of the tools the SDK ran become the tool
 * results that answer it. A part's `providerMetadata` is kept on its block. It resolves when
 * the stream ends, with the envelope of the last message recorded.
 */
export function fromAISDKStream(
  session: Session,
  fullStream: StreamSource<AISDKStreamPart>,
  options: AdapterOptions = {},
): Promise<Envelope | null> {
  return pump(session, fullStream, new AISDKHandler(options.provider));
}

type ProviderMetadata = Record<string, Record<string, unknown>>;

/** The part streaming into the session's open block. */
interface Streaming {
  kind: 'text' | 'reasoning' | 'tool-input' | 'redacted';
  id: string;
  metadata: ProviderMetadata | undefined;
  changed: boolean; // metadata came after the block started
}

const ANTHROPIC_STOP_REASONS = new Set(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded']);
const FINISH_REASONS: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
};

class AISDKHandler implements Handler<AISDKPart> {
  #streaming: Streaming | undefined;
  #toolInputs = new Set<string>(); // tool calls whose input streamed
  /** Tool results wait for the step's finish, so that they follow its assistant message. */
  #results: StreamChunk[] = [];
  /** The stream's error or abort part, recorded when it came and thrown at the end. */
  #error: { error: unknown } | undefined;

  constructor(readonly provider: string | undefined) {}

  event(part: AISDKPart, rec: Recorder): void {
    switch (part.type) {
      case 'start-step':
        this.#streaming = undefined;
        return rec.ingest({ type: 'message_start', provider: this.provider });
      case 'text-start':
        return this.start('text', part, { type: 'text', text: '' }, rec);
      case 'text-delta':
        this.delta('text', part);
        return rec.ingest({ type: 'text', text: part.text });
      case 'reasoning-start':
        return this.reasoningStart(part, rec);
      case 'reasoning-delta':
        if (this.delta('reasoning', part) === 'redacted') return;
        return rec.ingest({ type: 'thinking', thinking: part.text });
      case 'text-end':
      case 'reasoning-end':
        return this.blockEnd(part, rec);
      case 'tool-input-start':
        this.#toolInputs.add(part.id);
        return this.start('tool-input', part, { type: toolType(part), id: part.id, name: part.toolName, input: {} }, rec);
      case 'tool-input-delta':
        this.delta('tool-input', part);
        return rec.ingest({ type: 'tool_use_delta', partialJson: part.delta });
      case 'tool-call':
        return this.toolCall(part, rec);
      case 'tool-result':
        return this.toolResult(part, rec);
      case 'tool-error':
        this.#results.push({ type: 'tool_result', toolUseId: part.toolCallId, content: errorMessage(part.error), isError: true });
        return;
      case 'tool-output-denied':
        this.#results.push({ type: 'tool_result', toolUseId: part.toolCallId, content: 'The tool call was denied.', isError: true });
        return;
      case 'source':
        return this.whole({ ...part } as Block, rec);
      case 'file':
        return this.whole(fileBlock(part), rec);
      case 'finish-step':
        return this.finishStep(part, rec);
      case 'error':
        this.#error ??= { error: part.error };
        rec.fail(errorMessage(part.error));
        return this.failed(rec);
      case 'abort':
        this.#error ??= { error: new Error(part.reason ? `aborted: ${part.reason}` : 'aborted') };
        rec.fail(errorMessage(this.#error.error));
        return this.failed(rec);
    }
    // start, finish (each step's usage was counted at its finish-step), tool-input-end,
    // tool-approval-request, raw, and parts this version does not know.
  }

  end(rec: Recorder): void {
    if (this.#error) throw this.#error.error;
    if (rec.open) throw new Error('the stream ended before finish-step');
    this.flushResults(rec);
  }

  failed(rec: Recorder): void {
    this.flushResults(rec);
  }

  start(kind: Streaming['kind'], part: AISDKPart, block: Record<string, unknown>, rec: Recorder): void {
    const metadata = isObject(part.providerMetadata) ? copy(part.providerMetadata) : undefined;
    if (metadata) block.providerMetadata = metadata;
    this.#streaming = { kind, id: part.id, metadata, changed: false };
    rec.ingest({ type: 'block_start', block: block as Block });
  }

  reasoningStart(part: AISDKPart, rec: Recorder): void {
    const redacted = part.providerMetadata?.anthropic?.redactedData;
    if (typeof redacted !== 'string') return this.start('reasoning', part, { type: 'thinking', thinking: '' }, rec);
    rec.ingest({ type: 'block', block: { type: 'redacted_thinking', data: redacted, providerMetadata: part.providerMetadata } });
    this.#streaming = { kind: 'redacted', id: part.id, metadata: undefined, changed: false };
  }

  /**
   * delta checks that a delta belongs to the part streaming (sessionkeep records one block
   * at a time) and gathers its provider metadata.
   */
  delta(kind: Streaming['kind'], part: AISDKPart): Streaming['kind'] {
    const s = this.#streaming;
    if (!s || s.id !== part.id || (s.kind !== kind && !(kind === 'reasoning' && s.kind === 'redacted'))) {
      throw new Error(`${part.type} for part ${part.id} arrived while ${s ? `part ${s.id}` : 'no part'} was streaming; sessionkeep records parts one after another`);
    }
    this.merge(part.providerMetadata);
    return s.kind;
  }

  merge(metadata: unknown): void {
    const s = this.#streaming!;
    if (!isObject(metadata)) return;
    s.metadata ??= {};
    for (const [provider, fields] of Object.entries(metadata)) {
      s.metadata[provider] = { ...s.metadata[provider], ...(fields as object) };
    }
    s.changed = true;
  }

  /** blockEnd sets the metadata that came while the block streamed, and a thinking block's signature. */
  blockEnd(part: AISDKPart, rec: Recorder): void {
    const s = this.#streaming;
    if (!s || s.id !== part.id || s.kind === 'redacted') return;
    this.merge(part.providerMetadata);
    if (s.changed && s.metadata) rec.ingest({ type: 'block_fields', fields: { providerMetadata: s.metadata } });
    const signature = s.metadata?.anthropic?.signature;
    if (s.kind === 'reasoning' && typeof signature === 'string') rec.ingest({ type: 'signature', signature });
    s.changed = false;
  }

  /**
   * toolCall records a tool call that came whole; for one whose input streamed, the block is
   * still open and gets the call's other fields.
   */
  toolCall(part: AISDKPart, rec: Recorder): void {
    const s = this.#streaming;
    if (!this.#toolInputs.has(part.toolCallId)) {
      return this.whole(toolBlock(part.toolCallId, part.toolName, part.input, part), rec);
    }
    if (s?.kind !== 'tool-input' || s.id !== part.toolCallId) return;
    this.merge(part.providerMetadata);
    const fields = callFields(part);
    if (s.metadata) fields.providerMetadata = s.metadata;
    if (Object.keys(fields).length > 0) rec.ingest({ type: 'block_fields', fields });
  }

  toolResult(part: AISDKPart, rec: Recorder): void {
    if (part.preliminary) return;
    if (part.providerExecuted) {
      const block: Record<string, unknown> = { type: 'server_tool_result', tool_use_id: part.toolCallId, content: part.output };
      if (part.providerMetadata) block.providerMetadata = part.providerMetadata;
      return this.whole(block as Block, rec);
    }
    // A string output is the content; any other output is kept, as it came, under raw.
    const output = part.output;
    const text = typeof output === 'string';
    this.#results.push({
      type: 'tool_result',
      toolUseId: part.toolCallId,
      content: text ? output : encode(output) ?? 'undefined',
      isError: false,
      raw: text ? undefined : { output },
    });
  }

  whole(block: Block, rec: Recorder): void {
    this.#streaming = undefined;
    rec.ingest({ type: 'block', block });
  }

  finishStep(part: AISDKPart, rec: Recorder): void {
    this.#streaming = undefined;
    rec.ingest({
      type: 'done',
      stopReason: stopReason(part.finishReason, part.rawFinishReason),
      usage: isObject(part.usage) ? aiSDKUsage(part.usage) : undefined,
      id: part.response?.id,
      model: part.response?.modelId,
    });
    this.flushResults(rec);
  }

  flushResults(rec: Recorder): void {
    const results = this.#results;
    this.#results = [];
    for (const r of results) rec.ingest(r);
  }
}

/** A tool call is a tool_use block, or a server_tool_use when the provider ran it. */
function toolType(part: AISDKPart): string {
  return part.providerExecuted ? 'server_tool_use' : 'tool_use';
}

/** toolBlock is a tool call that came whole, as a block. */
function toolBlock(id: string, name: string, input: unknown, part: AISDKPart): Block {
  const block: Record<string, unknown> = { type: toolType(part), id, name };
  if (isObject(input)) {
    block.input = input;
  } else {
    block.input = {};
    block.raw_input = typeof input === 'string' ? input : encode(input);
    block.input_error = 'tool call input is not an object';
  }
  Object.assign(block, callFields(part));
  if (part.providerMetadata) block.providerMetadata = part.providerMetadata;
  return block as Block;
}

/** callFields are the fields of a tool-call part beside its id, name and input, kept on its block. */
function callFields(part: AISDKPart): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of ['dynamic', 'title', 'invalid'] as const) {
    if (part[key] !== undefined) fields[key] = part[key];
  }
  if (part.error !== undefined) fields.error = errorMessage(part.error);
  return fields;
}

/** fileBlock is a generated file as an image block, or a document block for other media. */
function fileBlock(part: AISDKPart): Block {
  const file = part.file ?? {};
  const mediaType: string = file.mediaType ?? 'application/octet-stream';
  const block: Record<string, unknown> = {
    type: mediaType.startsWith('image/') ? 'image' : 'document',
    source: { type: 'base64', media_type: mediaType, data: file.base64 },
  };
  if (part.providerMetadata) block.providerMetadata = part.providerMetadata;
  return block as Block;
}

function stopReason(finishReason: unknown, raw: unknown): string | undefined {
  if (typeof raw === 'string' && ANTHROPIC_STOP_REASONS.has(raw)) return raw;
  if (typeof finishReason !== 'string') return undefined;
  return FINISH_REASONS[finishReason] ?? (typeof raw === 'string' ? raw : finishReason);
}

/**
 * aiSDKUsage maps the AI SDK's usage onto the tracker's counters: input without cached
 * tokens, cache reads and writes apart; the provider's own report is kept under raw.
 */
function aiSDKUsage(u: Record<string, any>): Usage {
  const details = u.inputTokenDetails ?? {};
  const cacheRead = num(details.cacheReadTokens ?? u.cachedInputTokens);
  const cacheWrite = num(details.cacheWriteTokens);
  const input = details.noCacheTokens ?? num(u.inputTokens) - cacheRead - cacheWrite;
  return trackerUsage(num(input), cacheRead, cacheWrite, num(u.outputTokens), u.raw);
}

function copy(metadata: Record<string, any>): ProviderMetadata {
  const out: ProviderMetadata = {};
  for (const [k, v] of Object.entries(metadata)) out[k] = { ...v };
  return out;
}
