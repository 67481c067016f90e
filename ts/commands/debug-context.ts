import { DEFAULT_WINDOW } from '../default-window';
import { currentSession, noArgs, type SessionCommand } from './command';

/**
 * debugContext is seed 004's /debug context: the report of the context last built for this
 * session (strategy, budget, what was included, pruned and summarized). Before any was built
 * in this process it builds one (no summarizer, so nothing is written) and says so.
 */
export const debugContext: SessionCommand = {
  name: '/debug context',
  args: '',
  summary: 'what the last model call was sent, and why',
  needsSession: true,
  async run(args, ctx) {
    noArgs('/debug context', args);
    const session = currentSession(ctx);
    let report = session.debugContext();
    let note = '';
    if (!report) {
      const contextWindow = ctx.options.contextWindow ?? ((await session.detailsAsync()).contextWindow || DEFAULT_WINDOW);
      report = (await session.buildContextAsync({ contextWindow, format: ctx.options.contextFormat })).debug;
      note = 'No context was built in this process yet; this is what the next call would be sent.\n';
    }
    const { text, ...data } = report;
    return { text: note + text.replace(/\n$/, ''), data: { ...data, builtNow: note !== '' } };
  },
};
