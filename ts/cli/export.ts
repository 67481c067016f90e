import fs from 'node:fs';
import path from 'node:path';
import type { Command } from './command';
import type { Context } from './context';
import { UsageError, flag, stringOption } from './args';
import { progress } from './term';
import type { SessionInfo } from '../types';
import type { ExportFormat } from '../interop-types';

/** FORMATS maps each --format the CLI takes to the store's export format and a file extension. */
const FORMATS: Record<string, { format: ExportFormat; ext: string }> = {
  md: { format: 'markdown', ext: 'md' },
  markdown: { format: 'markdown', ext: 'md' },
  json: { format: 'json', ext: 'json' },
  jsonl: { format: 'jsonl', ext: 'jsonl' },
  'claude-code': { format: 'claude-code', ext: 'jsonl' },
};

/**
 * export writes sessions out through store.export: Markdown for people, sessionkeep's JSON or
 * JSONL (every field; `sessionkeep import` reads them back), or a Claude Code transcript. One
 * session goes to stdout or -o <file>; several, or --all, go to -o <folder>, one file each,
 * with a progress bar on a terminal.
 */
export const exportCommand: Command = {
  name: 'export',
  summary: 'write sessions out as Markdown, JSON, JSONL or a Claude Code transcript',
  usage: 'export <id...> | --all [--project <path>]  --format md|json|jsonl|claude-code [-o <file|folder>]',
  options: {
    format: { type: 'string', short: 'f' },
    output: { type: 'string', short: 'o' },
    all: { type: 'boolean' },
    project: { type: 'string' },
  },
  async run(ctx, args) {
    const name = stringOption(args, 'format') ?? 'md';
    const format = FORMATS[name];
    if (!format) throw new UsageError(`--format must be one of ${Object.keys(FORMATS).join(', ')}, not ${JSON.stringify(name)}`);
    const output = stringOption(args, 'output');
    const sessions = await chosenSessions(ctx, args);
    if (sessions.length === 1 && !flag(args, 'all')) {
      const text = await ctx.store.export(sessions[0].id, { format: format.format, path: output });
      if (!output) ctx.out(text ?? '');
      return;
    }
    if (!output) throw new UsageError('exporting several sessions needs -o <folder>');
    fs.mkdirSync(output, { recursive: true, mode: 0o700 });
    const bar = progress('exporting', sessions.length);
    try {
      for (const info of sessions) {
        await ctx.store.export(info.id, { format: format.format, path: path.join(output, `${info.id}.${format.ext}`) });
        bar.tick();
      }
    } finally {
      bar.done();
    }
    process.stderr.write(`exported ${sessions.length} session${sessions.length === 1 ? '' : 's'} to ${output}\n`);
  },
};

async function chosenSessions(ctx: Context, args: Parameters<Command['run']>[1]): Promise<SessionInfo[]> {
  if (flag(args, 'all')) {
    if (args.positionals.length > 0) throw new UsageError('give session ids or --all, not both');
    return ctx.store.listSessionsAsync({ projectPath: stringOption(args, 'project'), includeArchived: true });
  }
  if (args.positionals.length === 0) throw new UsageError('give the session ids to export, or --all');
  return args.positionals.map((id) => ctx.store.sessionInfo(id));
}
