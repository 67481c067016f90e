// branches finds a session's branches in its tree: the one that ends at the head, and each
// branch left by a rewind or an edit (records off the head's branch), ending at its leaves.
// A subagent's records are not branches, and neither are the forks Claude Code writes for
// parallel tool calls (every child of such a fork is on the head's branch).
import type { SessionTree, TreeNode } from './api-types';

/** One branch to switch to: view the conversation that ends at `leaf`. */
export interface Branch {
  leaf: string;
  /** The record where it leaves the head's branch, and the one it follows there (absent for a root). */
  start: string;
  forkedFrom?: TreeNode;
  /** Records from its start to its leaf. */
  length: number;
  preview: string;
  timestamp: string;
}

/** offBranches lists the branches other than the head's, in the order they were written. */
export function offBranches(tree: SessionTree): Branch[] {
  const byId = new Map(tree.nodes.map((n) => [n.uuid, n]));
  const mainChildren = (n: TreeNode) => n.children.map((c) => byId.get(c)).filter((c): c is TreeNode => !!c && !c.isSidechain);
  const branches: Branch[] = [];
  for (const node of tree.nodes) {
    if (node.onBranch || node.isSidechain) continue;
    const parent = node.parentUuid ? byId.get(node.parentUuid) : undefined;
    if (parent && !parent.onBranch) continue; // inside a branch, not its start
    // Walk the branch's subtree; each leaf is a branch to view.
    const stack: [TreeNode, number][] = [[node, 1]];
    while (stack.length) {
      const [n, depth] = stack.pop()!;
      const children = mainChildren(n);
      if (children.length === 0) {
        branches.push({ leaf: n.uuid, start: node.uuid, forkedFrom: parent, length: depth, preview: n.preview || node.preview, timestamp: n.timestamp });
      }
      for (const c of children.reverse()) stack.push([c, depth + 1]);
    }
  }
  return branches;
}
