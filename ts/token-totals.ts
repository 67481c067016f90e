import type { TokenTracker } from './types';

/** totalTokens is every token a tracker counted: input, output, cache reads and cache writes. */
export function totalTokens(t: TokenTracker): number {
  return t.inputTokens + t.outputTokens + t.cacheReadInputTokens + t.cacheCreationInputTokens;
}
