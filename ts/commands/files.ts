import { localTime } from '../resume-summary';
import type { Session } from '../session';
import type { FileSnapshot, TrackedFile } from '../file-snapshots';
import { CommandError, currentSession, noArgs, shortId, type CommandContext, type SessionCommand } from './command';

/** files is /files: the session's file snapshots, by message, oldest first. */
export const files: SessionCommand = {
  name: '/files',
  args: '',
  summary: 'list the file snapshots of this session, by message',
  needsSession: true,
  async run(args, ctx) {
    noArgs('/files', args);
    const snapshots = await currentSession(ctx).fileSnapshotsAsync();
    if (snapshots.length === 0) return { text: 'No file snapshots in this session.', data: [] };
    const lines = snapshots.map((s) => {
      const names = s.files.map((f) => (f.state === 'deleted' ? `${f.path} (deleted)` : f.path));
      return `${ctx.style.bold(shortId(s.messageUuid))}  ${ctx.style.dim(localTime(new Date(s.timestamp)))}  ${names.join(', ')}`;
    });
    lines.push(ctx.style.dim('/restore <message> puts the files back as they were at that message.'));
    return { text: lines.join('\n'), data: snapshots };
  },
};

/**
 * restore is /restore <message> [--yes]: the files as they were at a message (its uuid or
 * first characters, as /files lists them), written into the root. Without --yes it says what
 * would be written and asks; a path that would lead outside the root is refused
 * (PATH_ESCAPE) by session.restoreFiles and nothing is written.
 */
export const restore: SessionCommand = {
  name: '/restore',
  args: '<message> [--yes]',
  summary: 'put files back as they were at a message of /files (asks first)',
  needsSession: true,
  async run(args, ctx) {
    const yes = args.includes('--yes');
    const rest = args.filter((a) => a !== '--yes');
    if (rest.length !== 1) throw new CommandError('INVALID_COMMAND', '/restore needs one message, as /files lists it: /restore <message>.');
    const session = currentSession(ctx);
    const snapshots = await session.fileSnapshotsAsync();
    const messageUuid = snapshotMessage(snapshots, rest[0]);
    if (!yes) return plan(ctx, messageUuid, await stateAt(session, snapshots, messageUuid));
    const result = await session.restoreFiles(messageUuid, { into: ctx.root });
    const text = result.written.length === 0
      ? `No files had content at ${shortId(messageUuid)}; nothing was written.`
      : `Restored ${result.written.length} file${result.written.length === 1 ? '' : 's'} into ${ctx.root}: ${result.written.join(', ')}`
        + (result.leftInPlace.length ? `\nLeft in place (they did not exist then): ${result.leftInPlace.join(', ')}` : '');
    return { text, data: result };
  },
};

/** snapshotMessage finds the one message with snapshots whose uuid starts with `prefix`. */
function snapshotMessage(snapshots: FileSnapshot[], prefix: string): string {
  const uuids = [...new Set(snapshots.map((s) => s.messageUuid))].filter((u) => u.startsWith(prefix.toLowerCase()));
  if (uuids.length === 0) throw new CommandError('SNAPSHOT_NOT_FOUND', `No file snapshot at a message starting with "${prefix}"; /files lists them.`);
  if (uuids.length > 1) throw new CommandError('AMBIGUOUS_ID', `"${prefix}" starts ${uuids.length} messages with snapshots; give more of it.`);
  return uuids[0];
}

/**
 * stateAt is each file's state at a message, as restoreFiles reads it: the latest recorded by
 * the snapshots (`all`, as /restore already read them) of that message and of the records
 * before it on the branch.
 */
async function stateAt(session: Session, all: FileSnapshot[], messageUuid: string): Promise<Map<string, TrackedFile['state']>> {
  const branch = new Map((await session.envelopesAsync()).map((e, i) => [e.uuid, i]));
  const at = branch.get(messageUuid);
  const snapshots = all.filter((s) =>
    at === undefined ? s.messageUuid === messageUuid : (branch.get(s.messageUuid) ?? Infinity) <= at);
  // In branch order; snapshots of one message keep the order they were taken in.
  const ordered = snapshots.map((s, i) => ({ s, i })).sort((a, b) => (branch.get(a.s.messageUuid) ?? 0) - (branch.get(b.s.messageUuid) ?? 0) || a.i - b.i);
  const state = new Map<string, TrackedFile['state']>();
  for (const { s } of ordered) for (const f of s.files) state.set(f.path, f.state);
  return state;
}

/** plan says which files /restore would write, and asks to confirm. */
function plan(ctx: CommandContext, messageUuid: string, latest: Map<string, TrackedFile['state']>) {
  const paths = [...latest.keys()].sort();
  const written = paths.filter((p) => latest.get(p) === 'present');
  const text = `At ${shortId(messageUuid)}: ${written.length} file${written.length === 1 ? '' : 's'} would be written into ${ctx.root}`
    + (written.length ? `: ${written.join(', ')}` : '')
    + (written.length < paths.length ? `; ${paths.length - written.length} did not exist then and are left as they are` : '') + '.';
  return {
    text,
    data: { messageUuid, into: ctx.root, written },
    action: { type: 'confirm' as const, question: `Overwrite ${written.length} file${written.length === 1 ? '' : 's'}?`, line: `/restore ${messageUuid} --yes` },
  };
}
