import { argTypeError } from '../errors';
import { Session } from '../session';
import type { Envelope, StreamChunk, Usage } from '../types';

/** Options every stream adapter takes. */
export interface AdapterOptions {
  /** The envelope's `provider` for the messages the stream records; each adapter has its default. */
  provider?: string;
}

/**
 * A stream as the SDKs hand it over: an async iterable of events, or a promise of one
 * (an SDK call not yet awaited; when it has `withResponse()`, as the SDKs' API promises do,
 * the request id is read from the response).
 */
export type StreamSource<T> = AsyncIterable<T> | PromiseLike<AsyncIterable<T>>;

/** Recorder is what an adapter's event handlers write through: the session, and whether a message is open. */
export class Recorder {
  /** A message was started and has not been ended by done or error yet. */
  open = false;
  /** Something was recorded, so the stream's last envelope is worth reading back. */
  recorded = false;
  requestId: string | undefined;

  constructor(readonly session: Session) {}

  ingest(chunk: StreamChunk): void {
    this.session.ingest(chunk);
    this.recorded = true;
    if (chunk.type === 'message_start') this.open = true;
    if (chunk.type === 'done' || chunk.type === 'error') this.open = false;
  }

  /** fail ends the message streaming with status 'error', keeping what arrived. */
  fail(message: string): void {
    if (this.open) this.ingest({ type: 'error', message });
  }
}

/** What an adapter does with a stream's events. */
export interface Handler<T> {
  event(event: T, rec: Recorder): void;
  /** end runs when the stream is over; it throws when the stream left its message unfinished. */
  end(rec: Recorder): void | Promise<void>;
  /** failed runs after the message streaming was ended as 'error' because the stream threw. */
  failed?(rec: Recorder): void;
}

/**
 * pump feeds every event of the stream to the handler, then ends. When the stream (or
 * recording an event) throws, the message streaming is ended with status 'error' and the
 * error is rethrown; leaving the loop early cancels the SDK's request. It resolves with the
 * envelope of the last message recorded, or null when nothing was.
 */
export async function pump<T>(session: Session, source: StreamSource<T>, handler: Handler<T>): Promise<Envelope | null> {
  if (!(session instanceof Session)) {
    throw argTypeError('session', 'a Session from store.createSession() or store.openSession()');
  }
  const rec = new Recorder(session);
  try {
    const stream = await resolveSource(source, rec);
    for await (const event of stream) handler.event(event, rec);
    await handler.end(rec);
  } catch (err) {
    try {
      rec.fail(errorMessage(err));
      handler.failed?.(rec);
    } catch {
      // The session itself failed (closed, say): the stream's error is the one to report.
    }
    throw err;
  }
  return rec.recorded ? session.lastEnvelope() : null;
}

async function resolveSource<T>(source: StreamSource<T>, rec: Recorder): Promise<AsyncIterable<T>> {
  const s = source as any;
  if (s !== null && typeof s === 'object' && typeof s.withResponse === 'function' && typeof s.then === 'function') {
    const { data, request_id } = await s.withResponse();
    rec.requestId = request_id ?? undefined;
    return checkIterable(data);
  }
  return checkIterable(await source);
}

function checkIterable<T>(stream: unknown): AsyncIterable<T> {
  if (stream === null || typeof stream !== 'object' || typeof (stream as any)[Symbol.asyncIterator] !== 'function') {
    throw argTypeError('stream', 'an async iterable of stream events (or a promise of one)');
  }
  return stream as AsyncIterable<T>;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === 'string' ? err : String(err);
}

/**
 * trackerUsage gives provider usage our token counters (Anthropic names: input excludes
 * cached tokens) and keeps what the provider reported, as it came, under `raw`.
 */
export function trackerUsage(input: number, cacheRead: number, cacheWrite: number, output: number, raw: unknown): Usage {
  const usage: Usage = {
    input_tokens: Math.max(0, input),
    output_tokens: output,
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  };
  if (raw !== undefined) usage.raw = raw;
  return usage;
}

/** num reads a token count: a finite number, else 0. */
export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

export function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
