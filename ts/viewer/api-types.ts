// The shapes of the serve API's answers (the contract in docs/api.md), built from the store's
// own types so that the viewer follows them when they change.
import type { Envelope, SessionInfo } from '../types';
import type { BranchSummary } from '../serve/branch-list';
import type { FileSnapshot } from '../file-snapshots';
import type { ContextReport } from '../context-types';
import type { SessionDetails } from '../management-types';
import type { TurnUsage as ContextTurn } from '../serve/session-api';

export type { Block, Envelope, SessionInfo, ToolResultBlock, ToolUseBlock } from '../types';
export type { BranchSummary } from '../serve/branch-list';
export type { FileSnapshot, TrackedFile } from '../file-snapshots';
export type { ContextReport } from '../context-types';
/** ContextTurn is one turn's point on the context chart, as the server computes it. */
export type { TurnUsage as ContextTurn } from '../serve/session-api';

/** One full-text hit; the snippet marks matches with \u0001 … \u0002. */
export interface SearchHit { seq: number; uuid: string; role: string; snippet: string }

export interface ListedSession extends SessionInfo { hits?: SearchHit[] }

export interface SessionsPage { total: number; offset: number; limit: number; sessions: ListedSession[] }

export interface ProjectsAnswer { projects: { path: string; sessions: number }[] }

export interface SessionAnswer {
  info: SessionDetails;
  /** The head's branch first, then each branch off it; empty for a session without messages. */
  branches: BranchSummary[];
  snapshots: FileSnapshot[];
  context: ContextReport | null;
}

export interface MessagesPage { total: number; offset: number; limit: number; envelopes: Envelope[] }

export interface SnapshotFile { path: string; content: string | null; encoding: 'utf8' | 'base64' }

export interface ContextUsage { contextWindow: number | null; turns: ContextTurn[] }

export interface UsageSums {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  costUsd?: number | null;
}

export interface UsageAnswer {
  byDay: (UsageSums & { day: string; model: string })[];
  byModel: (UsageSums & { model: string })[];
  byProject: (UsageSums & { project: string })[];
  /** Usage by 5-hour window, as subscription plans count it, oldest first. */
  byBlock: (UsageSums & { start: string; end: string; lastAt: string; requests: number; models: string[] })[];
  /** Models with usage but no price, left out of the cost. */
  unpricedModels: string[];
}
