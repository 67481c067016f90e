import type { SessionTree, TreeNode } from '../branches';

/** BranchSummary is one branch of a session to switch to: view the conversation that ends at `leaf`. */
export interface BranchSummary {
  /** The record it ends at, `leaf=` of /messages; for the head's branch, the head. */
  leaf: string;
  /**
   * How many records: for the head's branch, every record on it (what /messages lists); for
   * another, its own, from where it leaves the head's branch to its leaf.
   */
  records: number;
  /** The record of the head's branch it follows; absent for the head's branch and for a branch that is a root of its own. */
  forkUuid?: string;
  /** One line of that record. */
  forkPreview?: string;
  /** One line of its leaf, else of its first record of its own. */
  preview: string;
  /** When its leaf was written. */
  at: string;
}

/**
 * branchList lists a session's branches from its tree: the head's branch first, then each
 * branch a rewind or an edit left (records off the head's branch), one a leaf, in the order
 * written. A subagent's records are not branches, and neither are the forks Claude Code
 * writes for parallel tool calls (every child of such a fork is on the head's branch).
 * Empty for a session without a head (no messages).
 */
export function branchList(tree: SessionTree): BranchSummary[] {
  if (tree.head === null) return [];
  const byUuid = new Map(tree.nodes.map((n) => [n.uuid, n]));
  const head = byUuid.get(tree.head);
  const onHeadsBranch = tree.nodes.filter((n) => n.onBranch).length;
  const branches: BranchSummary[] = [{ leaf: tree.head, records: onHeadsBranch, preview: head?.preview ?? '', at: head?.timestamp ?? '' }];
  for (const start of tree.nodes) {
    if (start.onBranch || start.isSidechain) continue;
    const fork = start.parentUuid ? byUuid.get(start.parentUuid) : undefined;
    if (fork && !fork.onBranch) continue; // inside a branch, not its start
    branches.push(...leavesOf(start, fork, byUuid));
  }
  return branches;
}

/** leavesOf walks the branch that starts at `start` depth first: each leaf of it is a branch to view. */
function leavesOf(start: TreeNode, fork: TreeNode | undefined, byUuid: Map<string, TreeNode>): BranchSummary[] {
  const leaves: BranchSummary[] = [];
  const stack: [TreeNode, number][] = [[start, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    const children = node.children.map((c) => byUuid.get(c)).filter((c): c is TreeNode => !!c && !c.isSidechain);
    if (children.length === 0) {
      const forked = fork ? { forkUuid: fork.uuid, forkPreview: fork.preview } : {};
      leaves.push({ leaf: node.uuid, records: depth, ...forked, preview: node.preview || start.preview, at: node.timestamp });
    }
    for (const c of children.reverse()) stack.push([c, depth + 1]);
  }
  return leaves;
}
