import type { Command } from './command';
import { UsageError, stringOption } from './args';
import { printJSON } from './context';
import { progress, type Progress } from './term';
import { openStore } from '../store';
import type { MigrateProgress } from '../migrate-types';

/**
 * migrate moves every session of one store into another: a SQLite file or a postgres:// URL
 * on either side. It is resumable: run again after an interruption, it copies only what the
 * target lacks. Progress goes to stderr, a bar on a terminal and a line a session elsewhere
 * (a log of a long move in a job).
 */
export const migrate: Command = {
  name: 'migrate',
  summary: 'move every session of one store into another (SQLite file or postgres:// URL)',
  usage: 'migrate --from <file|url> --to <file|url>  (--db <file|url> may name the source)',
  options: { from: { type: 'string' }, to: { type: 'string' } },
  storeOption: 'from',
  async run(ctx, args) {
    const to = stringOption(args, 'to');
    if (to === undefined || to === '') throw new UsageError('give the store to move into with --to <file|url>');
    const target = openStore(to);
    const report = sessionProgress();
    try {
      const result = await ctx.store.migrateTo(target, { onProgress: report.report });
      report.done();
      if (ctx.json) return printJSON(ctx, result);
      ctx.out(`${result.sessionCount} session${result.sessionCount === 1 ? '' : 's'} moved: ${result.records} records copied, ${result.existing} already there\n`);
      for (const s of result.skipped) ctx.out(ctx.style.yellow(`  skipped ${s.sessionId}: ${s.reason}\n`));
    } finally {
      report.done();
      target.close();
    }
  },
};

/** sessionProgress reports each moved session: a bar on a terminal, else a line on stderr. */
function sessionProgress(): { report(p: MigrateProgress): void; done(): void } {
  if (!process.stderr.isTTY) {
    return {
      report(p) {
        process.stderr.write(`migrate: ${p.sessionsDone}/${p.sessionsTotal} sessions, ${p.records} records copied, ${p.existing} already there\n`);
      },
      done() {},
    };
  }
  let bar: Progress | undefined;
  let shown = 0;
  return {
    report(p) {
      bar ??= progress('migrating', p.sessionsTotal);
      bar.tick(p.sessionsDone - shown);
      shown = p.sessionsDone;
    },
    done() {
      bar?.done();
      bar = undefined;
    },
  };
}
