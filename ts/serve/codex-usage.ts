import type { Envelope, Usage } from '../types';

/** One Codex request's usage as its rollout's token_count event gives it. */
export interface CodexRequestUsage {
  usage: Usage;
  /** The model's context window, as Codex reports it. */
  contextWindow?: number;
}

interface TokenCountPayload {
  type?: unknown;
  info?: {
    last_token_usage?: { input_tokens?: unknown; cached_input_tokens?: unknown; output_tokens?: unknown };
    model_context_window?: unknown;
  } | null;
}

/**
 * codexRequestUsage reads the usage of one request from an imported Codex rollout's
 * token_count event (kept verbatim as the record's source): Codex puts usage there, not on
 * its messages. Cached input is part of Codex's input_tokens; it is split out as a cache read,
 * as the import counts it. Undefined for any other record.
 */
export function codexRequestUsage(e: Envelope): CodexRequestUsage | undefined {
  if (e.source?.format !== 'codex') return undefined;
  const payload = e.source.record.payload as TokenCountPayload | undefined;
  const last = payload?.type === 'token_count' ? payload.info?.last_token_usage : undefined;
  if (!last) return undefined;
  const input = count(last.input_tokens);
  const cached = count(last.cached_input_tokens);
  const window = count(payload?.info?.model_context_window);
  return {
    usage: { input_tokens: input - cached, cache_read_input_tokens: cached, output_tokens: count(last.output_tokens) },
    contextWindow: window > 0 ? window : undefined,
  };
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}
