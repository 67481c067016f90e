import type { Command } from './command';
import { flag } from './args';
import { printJSON } from './context';
import { whileWaiting } from './term';
import { SessionError } from '../errors';
import type { VerifyReport } from '../verify-types';

/**
 * verify checks the whole store and prints what it found; with --repair it first rebuilds
 * the search indexes and counts. Damage makes it fail (STORE_DAMAGED, exit status 1).
 */
export const verify: Command = {
  name: 'verify',
  summary: 'check the whole store; --repair rebuilds its indexes and counts',
  usage: 'verify [--repair] [--json]',
  options: { repair: { type: 'boolean' } },
  async run(ctx, args) {
    const repair = flag(args, 'repair');
    const report = await whileWaiting(repair ? 'repairing and checking' : 'checking', ctx.store.verify({ repair }));
    if (ctx.json) printJSON(ctx, report);
    else ctx.out(render(report));
    const damage = report.problems.filter((p) => p.damage).length;
    if (damage > 0) throw new SessionError(`${damage} problem${damage === 1 ? '' : 's'} found`, 'STORE_DAMAGED');
  },
};

function render(r: VerifyReport): string {
  const lines = r.repaired.map((what) => `repaired: ${what}`);
  for (const p of r.problems) {
    lines.push(`${p.damage ? 'DAMAGE' : 'note'}  ${p.code}  ${p.sessionId ? `${p.sessionId}: ` : ''}${p.message}`);
  }
  lines.push(`${r.ok ? 'ok' : 'damaged'}: ${r.sessionCount} sessions, ${r.messageCount} messages, ${r.blobCount} blobs; file ${r.fileBytes} bytes, WAL ${r.walBytes} bytes`);
  return lines.join('\n') + '\n';
}
