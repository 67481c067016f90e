import type { Command } from './command';
import { UsageError, stringOption } from './args';
import { printJSON } from './context';
import { byteProgress, type ByteProgress } from './byte-progress';
import type { ImportFormat, ImportProgress } from '../interop-types';

const FORMATS: ImportFormat[] = ['claude-code', 'codex', 'gemini', 'opencode', 'aider', 'jsonl', 'json'];

/**
 * import reads transcripts into the store: a file, or a folder such as ~/.claude/projects,
 * with a progress bar over the bytes read on stderr when it is a terminal (or with --progress,
 * a line at each tenth). Records keep their uuids, so running
 * it again adds nothing; damaged lines are listed and skipped.
 */
export const importCommand: Command = {
  name: 'import',
  summary: 'read Claude Code, Codex, Gemini CLI, OpenCode, aider or sessionkeep transcripts into the store',
  usage: 'import <file|folder...> [--format claude-code|codex|gemini|opencode|aider|jsonl|json] [--progress]',
  options: { format: { type: 'string', short: 'f' }, progress: { type: 'boolean' } },
  createsStore: true,
  async run(ctx, args) {
    if (args.positionals.length === 0) throw new UsageError('give the files or folders to import');
    const format = stringOption(args, 'format') as ImportFormat | undefined;
    if (format !== undefined && !FORMATS.includes(format)) {
      throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(format)}`);
    }
    const results = [];
    for (const source of args.positionals) {
      const bar = importProgress(source, args.values.progress === true);
      try {
        results.push({ source, ...(await ctx.store.import(source, { format, onProgress: bar.report })) });
      } finally {
        bar.done();
      }
    }
    // import() settles before its records are indexed for search, and a search waits for
    // what is still queued: waiting here, before the store closes, keeps that cost in this
    // command rather than in the first search of a later one. No transcript holds the word.
    await ctx.store.searchAsync('sessionkeepimportindexed', { limit: 1 });
    if (ctx.json) return printJSON(ctx, results);
    for (const r of results) {
      ctx.out(`${r.source}: ${r.sessions.length} session${r.sessions.length === 1 ? '' : 's'}, ${r.records} records added, ${r.existing} already stored\n`);
      for (const s of r.skipped) ctx.out(ctx.style.yellow(`  skipped ${s.file}:${s.line}: ${s.reason}\n`));
    }
  },
};

/** importProgress draws a bar over the bytes of `source` as import progress reports arrive. */
function importProgress(source: string, always: boolean): { report(p: ImportProgress): void; done(): void } {
  let bar: ByteProgress | undefined;
  return {
    report(p) {
      bar ??= byteProgress(`importing ${source}`, p.bytesTotal, { always });
      bar.at(p.bytesDone);
    },
    done() {
      bar?.done();
    },
  };
}
