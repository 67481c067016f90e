import type { Session, ToolUseBlock } from 'sessionkeep';
import type { Model } from './model.js';
import { runTool } from './tools.js';

/** A turn stops after this many model replies, so a model that only calls tools cannot loop forever. */
const MAX_REPLIES = 20;

/**
 * runTurn answers the prompt just recorded in `session`: the model replies into the session;
 * while a reply ends in tool calls, the agent runs them in `root` and records each result as
 * soon as it has it, and the model replies again. Everything goes through the session, so
 * what the screen shows and what a resume restores is what was recorded.
 */
export async function runTurn(session: Session, model: Model, root: string, signal: AbortSignal): Promise<void> {
  for (let n = 0; n < MAX_REPLIES; n++) {
    const conversation = await session.messagesAsync();
    try {
      await model.reply(conversation, session, signal);
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
  }
}
