// SnapshotDiff compares two file snapshots: which files were added, removed or changed, and
// for a changed file whose contents are stored, a line diff (the `diff` package).
import { useEffect, useState } from 'preact/hooks';
import { diffLines, type Change } from 'diff';
import { getJSON } from '../api';
import type { FileSnapshot, SnapshotFile, TrackedFile } from '../api-types';

/** At most this many changed files have their contents fetched and diffed. */
const MAX_DIFFED_FILES = 20;

interface FileChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: TrackedFile;
  after?: TrackedFile;
}

/**
 * sameContent: both versions are known to be the same, by hash or, for an imported snapshot
 * without one, by its source's backup name (Claude Code names a backup by file and version).
 */
function sameContent(a: TrackedFile, b: TrackedFile): boolean {
  // Stored JSON says null for none.
  if (a.hash != null || b.hash != null) return a.hash === b.hash;
  const backup = (f: TrackedFile) => f.source?.backupFileName;
  return backup(a) != null && backup(a) === backup(b);
}

/** changedFiles lists the files that differ between two snapshots, in path order. */
export function changedFiles(from: FileSnapshot, to: FileSnapshot): FileChange[] {
  const before = new Map(from.files.filter((f) => f.state === 'present').map((f) => [f.path, f]));
  const after = new Map(to.files.filter((f) => f.state === 'present').map((f) => [f.path, f]));
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes: FileChange[] = [];
  for (const path of paths) {
    const b = before.get(path);
    const a = after.get(path);
    if (b && a && sameContent(b, a)) continue;
    changes.push({ path, kind: !b ? 'added' : !a ? 'removed' : 'changed', before: b, after: a });
  }
  return changes;
}

interface SnapshotDiffProps {
  sessionId: string;
  from: FileSnapshot;
  to: FileSnapshot;
}

export function SnapshotDiff({ sessionId, from, to }: SnapshotDiffProps) {
  const changes = changedFiles(from, to);
  return (
    <div class="snapshot-diff" data-testid="snapshot-diff">
      <p>{changes.length === 0 ? 'No file differs.' : `${changes.length} files differ.`}</p>
      {changes.map((c, i) => (
        <FileDiff key={c.path} sessionId={sessionId} from={from} to={to} change={c} fetchContents={i < MAX_DIFFED_FILES} />
      ))}
    </div>
  );
}

/** fileText is a file's text in a snapshot: '' when it was not there, null when its contents are not stored or not text. */
async function fileText(sessionId: string, snapshot: FileSnapshot, file: TrackedFile | undefined): Promise<string | null> {
  if (!file) return '';
  if (!file.backedUp) return null;
  const answer = await getJSON<SnapshotFile>(
    `sessions/${encodeURIComponent(sessionId)}/snapshots/${encodeURIComponent(snapshot.id)}/file`,
    { path: file.path },
  );
  return answer.encoding === 'utf8' ? answer.content : null;
}

interface FileDiffProps extends SnapshotDiffProps {
  change: FileChange;
  fetchContents: boolean;
}

function FileDiff({ sessionId, from, to, change, fetchContents }: FileDiffProps) {
  const [lines, setLines] = useState<Change[] | null>(null);
  const [note, setNote] = useState<string>(fetchContents ? 'loading…' : 'not compared (too many files)');
  useEffect(() => {
    if (!fetchContents) return;
    let live = true;
    Promise.all([fileText(sessionId, from, change.before), fileText(sessionId, to, change.after)]).then(
      ([before, after]) => {
        if (!live) return;
        if (before === null || after === null) setNote('contents not stored or not text');
        else setLines(diffLines(before, after));
      },
      (error) => live && setNote(error.message),
    );
    return () => { live = false; };
  }, [change.path]);
  return (
    <details class="file-diff" open={lines !== null && lines.length < 400}>
      <summary>
        <span class={'change ' + change.kind}>{change.kind}</span> <code>{change.path}</code>
        {!lines && <span class="note"> · {note}</span>}
      </summary>
      {lines && (
        <pre class="diff">
          {lines.map((part, i) => (
            <span key={i} class={part.added ? 'added' : part.removed ? 'removed' : 'same'}>
              {prefixLines(part.value, part.added ? '+' : part.removed ? '-' : ' ')}
            </span>
          ))}
        </pre>
      )}
    </details>
  );
}

/** prefixLines puts a diff marker before each line of a part. */
function prefixLines(text: string, marker: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n').map((line) => marker + line).join('\n') + '\n';
}
