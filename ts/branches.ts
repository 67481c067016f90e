/**
 * Branches (seed 002): a session's records linked by parentUuid form a tree. The head is the
 * main-chain record the next message follows; rewind moves it, fork copies a branch into a
 * new session.
 */

/** One record of a session's tree. */
export interface TreeNode {
  uuid: string;
  /** As stored; null for none. A sidechain's first record has none: it hangs off the record of the tool call that started it. */
  parentUuid: string | null;
  type: string;
  /** Absent for a record that is not a message (an imported summary, progress or notice). */
  role?: 'user' | 'assistant';
  turn: number;
  status: string;
  timestamp: string;
  /** One line of the record: its first text, else what its first block is (`[tool_use Bash]`). */
  preview: string;
  /** The uuids of the records whose parent in the tree this is, in the order written. */
  children: string[];
  isHead: boolean;
  /** On the branch that ends at the head: what messages() and envelopes() return. */
  onBranch: boolean;
  isSidechain: boolean;
  agentId?: string;
  parentToolUseId?: string;
}

/** A session's tree: every record once, in the order written. */
export interface SessionTree {
  /** The uuid of the head; null when the session has no messages. */
  head: string | null;
  /** Records with no parent in the tree: the first record, and sidechains started from no tool call. */
  roots: string[];
  nodes: TreeNode[];
}

/** Where a forked session came from. */
export interface ForkOrigin {
  sessionId: string;
  /** The record whose history the fork shares: the fork's first head. */
  uuid: string;
}
