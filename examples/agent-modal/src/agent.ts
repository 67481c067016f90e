import type { CompactionEvent, ContextResult, Message, Session, ToolUseBlock } from 'sessionkeep';
import type { Model } from './model.js';
import { runTool } from './tools.js';

/** A turn stops after this many model replies, so a model that only calls tools cannot loop forever. */
const MAX_REPLIES = 20;

/** Turns a compaction keeps as they are, here and in /compact. */
export const KEEP_RECENT_TURNS = 2;

export interface TurnHooks {
  signal: AbortSignal;
  /** Told each context built for the model: the context meter shows it. */
  onContext?: (context: ContextResult) => void;
  /** Told when an automatic compaction starts and ends. */
  onCompaction?: (event: CompactionEvent) => void;
}

/**
 * runTurn answers the prompt just recorded in `session`: the model replies into the session;
 * while a reply ends in tool calls, the agent runs them in `root` and records each result as
 * soon as it has it, and the model replies again. Everything goes through the session, so
 * what the screen shows and what a resume restores is what was recorded.
 *
 * Each reply is given the context sessionkeep builds within the model's window; past the
 * compaction threshold it compacts first, with the model as summarizer.
 */
export async function runTurn(session: Session, model: Model, root: string, hooks: TurnHooks): Promise<void> {
  const { signal } = hooks;
  for (let n = 0; n < MAX_REPLIES; n++) {
    const context = await session.buildContextAsync({
      contextWindow: model.contextWindow,
      format: 'anthropic',
      summarize: model.summarize,
      model: model.model,
      keepRecentTurns: KEEP_RECENT_TURNS,
      onCompaction: hooks.onCompaction,
    });
    hooks.onContext?.(context);
    try {
      await model.reply(context.messages as Message[], session, signal);
    } catch (err) {
      if (!signal.aborted) session.ingest({ type: 'error', message: err instanceof Error ? err.message : String(err) });
      throw err;
    }
    const reply = (await session.messagesAsync()).at(-1);
    if (reply?.role !== 'assistant' || reply.stop_reason !== 'tool_use') return;
    for (const call of reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use')) {
      signal.throwIfAborted();
      const outcome = await runTool(root, call.name, call.input);
      session.ingest({ type: 'tool_result', toolUseId: call.id, content: outcome.content, isError: outcome.isError, raw: outcome.raw });
    }
    // All the results are in: `done` ends their message, so the next context holds them
    // (a context built while the message is open takes its calls for interrupted).
    session.ingest({ type: 'done' });
  }
}
