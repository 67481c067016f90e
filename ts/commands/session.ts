import fs from 'node:fs';
import path from 'node:path';
import { detailLines } from '../render/details';
import { resumeSummary } from '../resume-summary';
import { CommandError, currentSession, noArgs, shortId, type SessionCommand } from './command';

/** sessionInfo is /session info: the CLI's `info` of the current session. */
export const sessionInfo: SessionCommand = {
  name: '/session info',
  args: '',
  summary: 'this session\'s details: times, counts, tokens and cost by model',
  needsSession: true,
  async run(args, ctx) {
    noArgs('/session info', args);
    const details = await currentSession(ctx).detailsAsync({ prices: ctx.options.prices });
    const summary = resumeSummary(details);
    return { text: detailLines(details, summary, ctx.style).join('\n'), data: { ...details, resumeSummary: summary } };
  },
};

/**
 * sessionExport is /session export [file]: the session as Markdown, to `file` (relative to
 * the root; a missing folder is made) or to session-<id>.md there. An existing file is
 * never overwritten.
 */
export const sessionExport: SessionCommand = {
  name: '/session export',
  args: '[file]',
  summary: 'write this session out as Markdown (default: session-<id>.md)',
  needsSession: true,
  async run(args, ctx) {
    if (args.length > 1) throw new CommandError('INVALID_COMMAND', '/session export takes one file name; quote a name with spaces.');
    const session = currentSession(ctx);
    const file = path.resolve(ctx.root, args[0] ?? `session-${shortId(session.id)}.md`);
    if (fs.existsSync(file)) throw new CommandError('FILE_EXISTS', `${file} exists; give another file name.`);
    await session.flush();
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    await ctx.store.export(session.id, { format: 'markdown', path: file });
    const bytes = fs.statSync(file).size;
    return { text: `Exported this session as Markdown to ${file} (${bytes} bytes).`, data: { path: file, format: 'markdown', bytes } };
  },
};

/**
 * sessionArchive is /session archive: the session is hidden from listings and --continue
 * (nothing is deleted), and the app moves to a new session, since writing to an archived
 * session lists it again.
 */
export const sessionArchive: SessionCommand = {
  name: '/session archive',
  args: '',
  summary: 'hide this session from lists and --continue, and start a new one',
  needsSession: true,
  async run(args, ctx) {
    noArgs('/session archive', args);
    const session = currentSession(ctx);
    await session.flush();
    ctx.store.archiveSession(session.id);
    return {
      text: `Archived session ${session.id}; nothing is deleted (\`sessionkeep unarchive ${shortId(session.id)}\` lists it again). Starting a new session.`,
      data: { archived: session.id },
      action: { type: 'new-session' },
    };
  },
};
