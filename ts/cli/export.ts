import fs from 'node:fs';
import path from 'node:path';
import type { Command } from './command';
import type { Context } from './context';
import { UsageError, flag, stringOption } from './args';
import { markdown } from './render';
import { progress } from './term';
import type { SessionInfo } from '../types';

const FORMATS = { md: 'md', json: 'json', jsonl: 'jsonl' } as const;
type Format = keyof typeof FORMATS;

/**
 * export writes sessions out: Markdown for people, JSON ({ session, messages }) or JSONL (one
 * envelope a line) for programs. One session goes to stdout or -o <file>; several, or --all,
 * go to -o <folder>, one file each, with a progress bar on a terminal.
 */
export const exportCommand: Command = {
  name: 'export',
  summary: 'write sessions out as Markdown, JSON or JSONL',
  usage: 'export <id...> | --all [--project <path>]  --format md|json|jsonl [-o <file|folder>]',
  options: {
    format: { type: 'string', short: 'f' },
    output: { type: 'string', short: 'o' },
    all: { type: 'boolean' },
    project: { type: 'string' },
  },
  async run(ctx, args) {
    const format = stringOption(args, 'format') ?? 'md';
    if (!(format in FORMATS)) throw new UsageError(`--format must be md, json or jsonl, not ${JSON.stringify(format)}`);
    const output = stringOption(args, 'output');
    let sessions: SessionInfo[];
    if (flag(args, 'all')) {
      if (args.positionals.length > 0) throw new UsageError('give session ids or --all, not both');
      sessions = await ctx.store.listSessionsAsync({ projectPath: stringOption(args, 'project'), includeArchived: true });
    } else {
      if (args.positionals.length === 0) throw new UsageError('give the session ids to export, or --all');
      sessions = args.positionals.map((id) => ctx.store.sessionInfo(id));
    }
    if (sessions.length === 1 && !flag(args, 'all')) {
      const text = await render(ctx, sessions[0], format as Format);
      if (output) fs.writeFileSync(output, text, { mode: 0o600 });
      else ctx.out(text);
      return;
    }
    if (!output) throw new UsageError('exporting several sessions needs -o <folder>');
    fs.mkdirSync(output, { recursive: true, mode: 0o700 });
    const bar = progress('exporting', sessions.length);
    try {
      for (const info of sessions) {
        fs.writeFileSync(path.join(output, `${info.id}.${format}`), await render(ctx, info, format as Format), { mode: 0o600 });
        bar.tick();
      }
    } finally {
      bar.done();
    }
    process.stderr.write(`exported ${sessions.length} session${sessions.length === 1 ? '' : 's'} to ${output}\n`);
  },
};

async function render(ctx: Context, info: SessionInfo, format: Format): Promise<string> {
  const session = ctx.store.openSession(info.id);
  try {
    const envelopes = await session.envelopesAsync();
    switch (format) {
      case 'json':
        return JSON.stringify({ session: info, messages: envelopes }, null, 2) + '\n';
      case 'jsonl':
        return envelopes.map((e) => JSON.stringify(e) + '\n').join('');
      default:
        return markdown(info, envelopes);
    }
  } finally {
    session.close();
  }
}
