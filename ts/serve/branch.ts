import type { SessionTree, TreeNode } from '../branches';
import { ApiError } from './respond';

/**
 * branchUuids lists, in the order written, the records of the branch that ends at `leaf`:
 * what envelopes() would return had the session been rewound there, found without
 * rewinding (the viewer writes nothing). Without a leaf it is the
 * branch the tree marks (`onBranch`).
 *
 * Another branch is its leaf's ancestors in the tree, with what hangs off them and belongs
 * to every branch through them as the tree counts it: sidechains (a subagent's records,
 * under the call that ran it), and records with nothing after them that are not a turn of
 * their own (imported notices and progress records with no message after them, the result
 * of one of several parallel tool calls linked to the line of its call).
 */
export function branchUuids(tree: SessionTree, leaf?: string): string[] {
  if (leaf === undefined) return tree.nodes.filter((n) => n.onBranch).map((n) => n.uuid);
  const byUuid = new Map(tree.nodes.map((n) => [n.uuid, n]));
  if (!byUuid.has(leaf)) throw new ApiError(404, 'MESSAGE_NOT_FOUND', `the session holds no record ${leaf}`);
  const parent = new Map<string, string>();
  for (const n of tree.nodes) for (const c of n.children) parent.set(c, n.uuid);
  const path = new Set<string>();
  for (let u: string | undefined = leaf; u !== undefined; u = parent.get(u)) path.add(u);
  const quiet = quietRecords(tree, byUuid);
  const on = new Set<string>();
  for (const n of tree.nodes) {
    const p = parent.get(n.uuid);
    if (path.has(n.uuid) || (p !== undefined && on.has(p) && (n.isSidechain || quiet.has(n.uuid))) ||
        (p !== undefined && path.has(p) && n.type === 'tool_result' && n.children.length === 0)) {
      on.add(n.uuid);
    }
  }
  return tree.nodes.filter((n) => on.has(n.uuid)).map((n) => n.uuid);
}

/**
 * quietRecords are the records that are not messages and have no message after them
 * (progress, queue and other notices at the end of a branch): they belong to the branch
 * they hang off.
 */
function quietRecords(tree: SessionTree, byUuid: Map<string, TreeNode>): Set<string> {
  const quiet = new Set<string>();
  for (let i = tree.nodes.length - 1; i >= 0; i--) {
    const n = tree.nodes[i];
    if (n.role === undefined && n.children.every((c) => quiet.has(c) || !byUuid.has(c))) quiet.add(n.uuid);
  }
  return quiet;
}
