import type { Envelope } from '../types';
import { CommandError, currentSession, noArgs, shortId, type SessionCommand } from './command';

/**
 * rewind is /rewind [n]: the conversation goes back to before the n-th last prompt (default
 * 1), deleting nothing: the head moves (session.rewind) and the next prompt starts a new
 * branch. The app reloads the session; `prompt` in the action is the prompt taken back.
 */
export const rewind: SessionCommand = {
  name: '/rewind',
  args: '[n]',
  summary: 'go back to before the last n prompts (default 1); nothing is deleted',
  needsSession: true,
  async run(args, ctx) {
    if (args.length > 1 || (args.length === 1 && !/^[1-9]\d{0,5}$/.test(args[0]))) {
      throw new CommandError('INVALID_COMMAND', `/rewind takes how many prompts to go back, a whole number from 1, not ${JSON.stringify(args.join(' '))}.`);
    }
    const n = args.length ? Number(args[0]) : 1;
    const session = currentSession(ctx);
    await session.flush();
    const chain = (await session.envelopesAsync()).filter((e) => !e.isSidechain);
    const prompts = chain.flatMap((e, i) => (isPrompt(e) ? [i] : []));
    if (prompts.length < n) {
      throw new CommandError('NOTHING_TO_REWIND', `This branch has ${prompts.length} prompt${prompts.length === 1 ? '' : 's'}; /rewind cannot go back ${n}.`);
    }
    const at = prompts[prompts.length - n];
    if (at === 0) {
      throw new CommandError('NOTHING_TO_REWIND', 'That would go back past the first prompt, to an empty conversation: /new starts one.');
    }
    const head = chain[at - 1].uuid;
    const prompt = promptText(chain[at]);
    await session.rewind(head);
    return {
      text: `Rewound ${n} prompt${n === 1 ? '' : 's'}, to before "${prompt}". Nothing is deleted: the next prompt starts a new branch.`,
      data: { head, prompt, rewoundPrompts: n },
      action: { type: 'reload', sessionId: session.id, prompt },
    };
  },
};

/** fork is /fork: a new session with this one's history, opened in its place; this one stays. */
export const fork: SessionCommand = {
  name: '/fork',
  args: '',
  summary: 'copy this conversation into a new session and go on there',
  needsSession: true,
  async run(args, ctx) {
    noArgs('/fork', args);
    const session = currentSession(ctx);
    await session.flush();
    const forked = await session.fork();
    const id = forked.id;
    // The app opens the fork itself, as it opens any session it shows.
    forked.close();
    return {
      text: `Forked into session ${id}; session ${shortId(session.id)} is left as it was.`,
      data: { sessionId: id, forkedFrom: session.id },
      action: { type: 'open-session', sessionId: id, reason: 'fork' },
    };
  },
};

/** isPrompt is a user's prompt: a user message, not tool results. */
function isPrompt(e: Envelope): boolean {
  return e.type === 'user' && e.message !== undefined && !e.message.content.some((b) => b.type === 'tool_result');
}

function promptText(e: Envelope): string {
  const text = e.message?.content.find((b) => b.type === 'text');
  return text ? String((text as { text: string }).text) : '';
}
