import type { Store } from '../store';
import type { Envelope, Usage } from '../types';
import { codexRequestUsage } from './codex-usage';
import type { PriceOptions } from '../management-types';
import type { Query } from './query';
import { withSession } from './open-session';
import type { RecordCache } from './records';
import { DEFAULT_WINDOW } from '../default-window';

/**
 * sessionDetails answers GET /api/sessions/:id: the session's details, its branches to switch
 * to (listed here, not sent as the whole tree: 7 MB for 20,000 records), its file snapshots
 * (without content) and /debug context's report: the context its next model call would be
 * sent, built as `sessionkeep debug-context` builds it (nothing is summarized), null for a
 * session without a message.
 */
export async function sessionDetails(store: Store, records: RecordCache, id: string, prices: PriceOptions) {
  const listing = records.branchList(id);
  return withSession(store, id, async (s) => {
    // A context is built from the head's branch: a session without one (no message, only
    // imported summaries or notices) has none to show.
    const context = listing.then((branches) => branches.length === 0 ? null :
      s.buildContextAsync({ contextWindow: store.sessionInfo(id).contextWindow || DEFAULT_WINDOW }).then((built) => built.debug));
    const [info, branches, snapshots, debug] = await Promise.all([s.detailsAsync(prices), listing, s.fileSnapshotsAsync(), context]);
    return { info, branches, snapshots, context: debug };
  });
}

/**
 * sessionMessages answers GET /api/sessions/:id/messages: one page of the branch that ends
 * at `leaf` (the current branch without), every record as stored with its envelope.
 */
export async function sessionMessages(records: RecordCache, id: string, q: Query) {
  const offset = q.int('offset', 0);
  const limit = q.int('limit', 200, 1000);
  const branch = await records.branch(id, q.string('leaf'));
  return { total: branch.length, offset, limit, envelopes: branch.slice(offset, offset + limit) };
}

/** TurnUsage is one turn's point on the context chart. */
export interface TurnUsage {
  turn: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  outputTokens: number;
  /** What the window held: the turn's last request's input, cache read and cache creation tokens. */
  contextTokens: number;
}

/**
 * contextUsage answers GET /api/sessions/:id/context-usage: turn by turn on the current
 * branch, the usage of the turn's last request (what the context held when the turn
 * ended), from the usage stored with each assistant message, or for an imported Codex
 * rollout from its token_count events, whose window stands in when the session records
 * none. Subagents' requests are their own contexts and left out.
 */
export async function contextUsage(store: Store, records: RecordCache, id: string) {
  const info = store.sessionInfo(id);
  const byTurn = new Map<number, TurnUsage>();
  let reportedWindow: number | undefined;
  for (const e of await records.branch(id)) {
    if (e.isSidechain) continue;
    const codex = codexRequestUsage(e);
    reportedWindow = codex?.contextWindow ?? reportedWindow;
    const usage = e.message?.role === 'assistant' ? e.message.usage : codex?.usage;
    if (usage) byTurn.set(e.turn, turnUsage(e, usage));
  }
  const contextWindow = info.contextWindow ?? reportedWindow;
  return {
    contextWindow: contextWindow ?? DEFAULT_WINDOW,
    contextWindowKnown: contextWindow !== undefined,
    turns: [...byTurn.values()].sort((a, b) => a.turn - b.turn),
  };
}

function turnUsage(e: Envelope, u: Usage): TurnUsage {
  const input = u.input_tokens ?? 0;
  const read = u.cache_read_input_tokens ?? 0;
  const creation = u.cache_creation_input_tokens ?? 0;
  return {
    turn: e.turn,
    inputTokens: input,
    cacheReadTokens: read,
    cacheCreationTokens: creation,
    outputTokens: u.output_tokens ?? 0,
    contextTokens: input + read + creation,
  };
}
