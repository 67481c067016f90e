import { Session } from '../session';
import { SessionError, argTypeError } from '../errors';
import type { Block, TokenTracker, Usage } from '../types';
import type { MessageContext, MessageOptions } from '../message-state';
import { AnthropicHandler } from './anthropic';
import { Recorder, errorMessage, isObject, num } from './common';

/** One message of the Claude Agent SDK's `query()` stream (`SDKMessage`), by its `type`. */
export interface ClaudeAgentSDKMessage {
  type: string;
}

/** SDKMessage is a message as the recorder reads it: any field may be there. */
type SDKMessage = ClaudeAgentSDKMessage & Record<string, any>;

/** Options of fromClaudeAgentSDK. */
export interface ClaudeAgentSDKOptions {
  /** The envelope's `provider` for the assistant messages; 'claude' by default. */
  provider?: string;
  /**
   * Record the `stream_event` partials (query option `includePartialMessages: true`) as
   * they come, so that a reply is on disk while it streams; the SDK's complete
   * `assistant` messages for a reply streamed this way are then not recorded again.
   */
  partials?: boolean;
  /** The prompt given to `query()`: recorded first, as the user message, since the SDK does not echo it. */
  prompt?: string | Block[];
}

/**
 * fromClaudeAgentSDK records the message stream of the Claude Agent SDK's `query()` into
 * `session` and yields every message on, unchanged, as it is recorded: the app iterates it
 * in place of the query. Assistant messages (one per API message; the SDK's one-block
 * messages sharing an id are joined), user messages and tool results, a subagent's messages
 * (`parent_tool_use_id`) on its sidechain, `stream_event` partials when `options.partials`
 * is set; a `result` sets the token tracker to the SDK's own usage and keeps the result
 * (turns, cost, durations) on the last assistant message's `usage.sdkResult`; the `init`
 * and `result` messages' `session_id` becomes `session.sdkSessionId`, to pass back to
 * `query()` as `resume`. When the stream throws, the message being recorded is kept with
 * status 'error' and the error is rethrown.
 */
export function fromClaudeAgentSDK<M extends ClaudeAgentSDKMessage>(
  session: Session,
  messages: AsyncIterable<M>,
  options: ClaudeAgentSDKOptions = {},
): AsyncGenerator<M, void, undefined> {
  if (!(session instanceof Session)) {
    throw argTypeError('session', 'a Session from store.createSession() or store.openSession()');
  }
  if (messages === null || typeof messages !== 'object' || typeof (messages as any)[Symbol.asyncIterator] !== 'function') {
    throw argTypeError('messages', 'the async iterable query() returns');
  }
  const recorder = new ClaudeAgentSDKRecorder(session, options);
  if (options.prompt !== undefined) session.appendUserMessage(options.prompt);
  return relay(messages, recorder);
}

async function* relay<M extends ClaudeAgentSDKMessage>(messages: AsyncIterable<M>, recorder: ClaudeAgentSDKRecorder): AsyncGenerator<M, void, undefined> {
  let failed = false;
  try {
    for await (const message of messages) {
      recorder.record(message);
      yield message;
    }
  } catch (err) {
    failed = true;
    recorder.fail(err);
    throw err;
  } finally {
    // Also when the app stops iterating early: the message held for more blocks is complete.
    if (!failed) recorder.finish();
  }
}

/** The assistant message being recorded, held open for the SDK's next block of it. */
interface Held {
  id: string | undefined;
  parentToolUseId: string | null;
  message: Record<string, any>;
  /** The SDK's `error` of a message it made up for a failed API call ('server_error', …). */
  error: unknown;
}

class ClaudeAgentSDKRecorder {
  readonly rec: Recorder;
  readonly provider: string;
  readonly partials: boolean;
  #held: Held | undefined;
  /** Replies that came as partials: their complete assistant messages are not recorded again. */
  #streamed = new Set<string>();
  readonly #partial: AnthropicHandler;
  /** The tracker before the SDK's first result is added to it. */
  #base: TokenTracker;
  #context: MessageContext | undefined;
  /** A compact_boundary waiting for the next message, whose context will carry it. */
  #boundary: unknown;

  constructor(readonly session: Session, options: ClaudeAgentSDKOptions) {
    this.rec = new Recorder(session);
    this.provider = options.provider ?? 'claude';
    this.partials = options.partials === true;
    this.#partial = new AnthropicHandler(this.provider, undefined);
    this.#base = session.tokenTracker();
  }

  record(m: SDKMessage): void {
    switch (m.type) {
      case 'system':
        return this.system(m);
      case 'assistant':
        return this.assistant(m);
      case 'user':
        return this.user(m);
      case 'stream_event':
        if (this.partials && isObject(m.event)) this.partial(m);
        return;
      case 'result':
        return this.result(m);
    }
    // Progress, hook, status, task and other notices are the SDK's UI events, not the conversation.
  }

  system(m: SDKMessage): void {
    if (m.subtype === 'init') {
      if (typeof m.session_id === 'string' && m.session_id !== '') this.session.updateSdkSession(m.session_id);
      if (typeof m.cwd === 'string') {
        this.#context = { cwd: m.cwd };
        this.session.setContext(this.#context);
      }
    } else if (m.subtype === 'compact_boundary') {
      this.#boundary = m.compact_metadata ?? {};
    }
  }

  /** state is the per-message state of the next message: its sidechain, and a compaction the SDK reported. */
  state(parentToolUseId: unknown): MessageOptions {
    const state: MessageOptions = {};
    if (typeof parentToolUseId === 'string' && parentToolUseId !== '') state.parentToolUseId = parentToolUseId;
    if (this.#boundary !== undefined) {
      state.context = { ...this.#context, sdkCompactBoundary: this.#boundary };
      this.#boundary = undefined;
    }
    return state;
  }

  assistant(m: SDKMessage): void {
    const message = isObject(m.message) ? m.message : {};
    const id = typeof message.id === 'string' ? message.id : undefined;
    if (id !== undefined && this.#streamed.has(id)) return;
    const held = this.#held;
    if (!held || held.id === undefined || held.id !== id || held.parentToolUseId !== (m.parent_tool_use_id ?? null)) {
      this.release();
      this.rec.ingest({
        type: 'message_start', id, model: message.model, provider: this.provider,
        requestId: typeof m.request_id === 'string' ? m.request_id : undefined, ...this.state(m.parent_tool_use_id),
      });
    }
    this.#held = { id, parentToolUseId: m.parent_tool_use_id ?? null, message, error: m.error };
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (isObject(block) && typeof block.type === 'string') this.rec.ingest({ type: 'block', block: block as Block });
    }
  }

  /**
   * release ends the held assistant message with the stop reason and usage of its last part;
   * a message the SDK made up for a failed API call ends with status 'error'.
   */
  release(result?: SDKMessage): void {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    if (typeof held.error === 'string' && held.error !== '') {
      const text = (held.message.content ?? []).map((b: any) => (typeof b?.text === 'string' ? b.text : '')).join('');
      this.rec.ingest({ type: 'error', message: text ? `${held.error}: ${text}` : held.error });
      return;
    }
    const usage: Usage | undefined = isObject(held.message.usage) ? { ...held.message.usage } : result ? {} : undefined;
    if (result && usage) usage.sdkResult = sdkResult(result);
    this.rec.ingest({
      type: 'done',
      stopReason: held.message.stop_reason ?? undefined,
      stopSequence: held.message.stop_sequence ?? undefined,
      usage,
    });
  }

  user(m: SDKMessage): void {
    this.release();
    if (m.isReplay === true || !isObject(m.message)) return; // the SDK echoing a prompt the app recorded
    const content = m.message.content;
    if (typeof content !== 'string' && !(Array.isArray(content) && content.length > 0)) return;
    const state = this.state(m.parent_tool_use_id);
    if (state.parentToolUseId === undefined && state.context === undefined && this.toolResult(content, m.tool_use_result)) return;
    this.session.appendUserMessage(content, state);
  }

  /**
   * toolResult records a main-chain message of one tool result with the tool's execution
   * record (`tool_use_result`) on its envelope, joined to the results before it. It gives
   * false when the message is something else, or answers no call this session recorded.
   */
  toolResult(content: unknown, execution: unknown): boolean {
    if (!Array.isArray(content) || content.length !== 1) return false;
    const block = content[0];
    if (!isObject(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') return false;
    try {
      this.rec.ingest({
        type: 'tool_result', toolUseId: block.tool_use_id, content: block.content ?? '', isError: block.is_error === true,
        raw: isObject(execution) ? execution : undefined,
      });
      return true;
    } catch (err) {
      if (err instanceof SessionError && err.code === 'UNKNOWN_TOOL_USE') return false;
      throw err;
    }
  }

  partial(m: SDKMessage): void {
    const event = m.event as { type: string; [field: string]: any };
    if (event.type === 'message_start') {
      this.release();
      if (typeof event.message?.id === 'string') this.#streamed.add(event.message.id);
      this.#partial.messageState = this.state(m.parent_tool_use_id);
    }
    this.#partial.event(event, this.rec);
  }

  result(m: SDKMessage): void {
    this.release(m);
    if (isObject(m.usage)) {
      const u = m.usage;
      const tracker: TokenTracker = {
        inputTokens: this.#base.inputTokens + num(u.input_tokens),
        outputTokens: this.#base.outputTokens + num(u.output_tokens),
        cacheReadInputTokens: this.#base.cacheReadInputTokens + num(u.cache_read_input_tokens),
        cacheCreationInputTokens: this.#base.cacheCreationInputTokens + num(u.cache_creation_input_tokens),
        contextTokens: this.session.tokenTracker().contextTokens,
      };
      this.session.restoreTokenTracker(tracker);
      this.#base = tracker;
    }
    if (typeof m.session_id === 'string' && m.session_id !== '') this.session.updateSdkSession(m.session_id);
  }

  fail(err: unknown): void {
    this.#held = undefined;
    try {
      this.rec.fail(errorMessage(err));
    } catch {
      // The session itself failed (closed, say): the stream's error is the one to report.
    }
  }

  finish(): void {
    this.release();
  }
}

/** sdkResult is what a result message says about the run: turns, cost, durations, usage by model. */
function sdkResult(m: SDKMessage): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['subtype', 'is_error', 'num_turns', 'total_cost_usd', 'duration_ms', 'duration_api_ms', 'stop_reason', 'usage', 'modelUsage', 'errors']) {
    if (m[key] !== undefined) out[key] = m[key];
  }
  return out;
}
