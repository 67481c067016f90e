import fs from 'node:fs';
import path from 'node:path';
import type { Command } from './command';
import type { Context } from './context';
import { UsageError, flag, stringOption } from './args';
import { progress } from './term';
import { compactionOf, sessionHtml } from '../export-html';
import { DEFAULT_WINDOW } from '../default-window';
import type { SessionInfo } from '../types';
import type { ExportFormat } from '../interop-types';

/** FORMATS maps each --format the store writes to its export format and a file extension. */
const FORMATS: Record<string, { store: ExportFormat; ext: string }> = {
  md: { store: 'markdown', ext: 'md' },
  markdown: { store: 'markdown', ext: 'md' },
  json: { store: 'json', ext: 'json' },
  jsonl: { store: 'jsonl', ext: 'jsonl' },
  'claude-code': { store: 'claude-code', ext: 'jsonl' },
};

/**
 * export writes sessions out through store.export: Markdown for people, sessionkeep's JSON or
 * JSONL (every field; `sessionkeep import` reads them back), or a Claude Code transcript; or
 * as one self-contained HTML page each (--format html, the viewer's rendering, to send to
 * someone; --redact replaces the built-in secret patterns in it). One session goes to stdout
 * or -o <file>; several, or --all, go to -o <folder>, one file each, with a progress bar on a
 * terminal.
 */
export const exportCommand: Command = {
  name: 'export',
  summary: 'write sessions out as Markdown, JSON, JSONL, a Claude Code transcript or an HTML page',
  usage: 'export <id...> | --all [--project <path>]  --format md|json|jsonl|claude-code|html [--redact] [-o <file|folder>]',
  options: {
    format: { type: 'string', short: 'f' },
    output: { type: 'string', short: 'o' },
    all: { type: 'boolean' },
    project: { type: 'string' },
    redact: { type: 'boolean' },
  },
  async run(ctx, args) {
    const name = stringOption(args, 'format') ?? 'md';
    const format: { store: ExportFormat | null; ext: string } | undefined = name === 'html' ? HTML : FORMATS[name];
    if (!format) throw new UsageError(`--format must be one of ${[...Object.keys(FORMATS), 'html'].join(', ')}, not ${JSON.stringify(name)}`);
    if (flag(args, 'redact') && format !== HTML) throw new UsageError('--redact applies to --format html');
    const store = format.store;
    const write = (id: string, file: string | undefined) => (store
      ? ctx.store.export(id, { format: store, path: file })
      : writeHtml(ctx, id, file, flag(args, 'redact')));
    const output = stringOption(args, 'output');
    const sessions = await chosenSessions(ctx, args);
    if (sessions.length === 1 && !flag(args, 'all')) {
      const text = await write(sessions[0].id, output);
      if (!output) ctx.out(text ?? '');
      return;
    }
    if (!output) throw new UsageError('exporting several sessions needs -o <folder>');
    fs.mkdirSync(output, { recursive: true, mode: 0o700 });
    const bar = progress('exporting', sessions.length);
    try {
      for (const info of sessions) {
        await write(info.id, path.join(output, `${info.id}.${format.ext}`));
        bar.tick();
      }
    } finally {
      bar.done();
    }
    process.stderr.write(`exported ${sessions.length} session${sessions.length === 1 ? '' : 's'} to ${output}\n`);
  },
};

/** HTML is --format html: a page of sessionHtml, written here rather than by store.export. */
const HTML = { store: null, ext: 'html' };

/** writeHtml writes session id's page to file (0600), or returns it without a file. */
async function writeHtml(ctx: Context, id: string, file: string | undefined, redact: boolean): Promise<string | undefined> {
  const session = ctx.store.openSession(id);
  let html: string;
  try {
    const [info, envelopes] = await Promise.all([session.detailsAsync(), session.envelopesAsync()]);
    const compaction = await compactionOf(session, envelopes, info.contextWindow || DEFAULT_WINDOW);
    html = sessionHtml(info, envelopes, { redact, compaction });
  } finally {
    session.close();
  }
  if (file === undefined) return html;
  fs.writeFileSync(file, html, { mode: 0o600 });
  return undefined;
}

async function chosenSessions(ctx: Context, args: Parameters<Command['run']>[1]): Promise<SessionInfo[]> {
  if (flag(args, 'all')) {
    if (args.positionals.length > 0) throw new UsageError('give session ids or --all, not both');
    return ctx.store.listSessionsAsync({ projectPath: stringOption(args, 'project'), includeArchived: true });
  }
  if (args.positionals.length === 0) throw new UsageError('give the session ids to export, or --all');
  return args.positionals.map((id) => ctx.store.sessionInfo(id));
}
