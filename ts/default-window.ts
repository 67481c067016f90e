/**
 * DEFAULT_WINDOW is the context window, in tokens, assumed for a session that records none:
 * by `sessionkeep debug-context`, the in-session /debug context and the viewer's server.
 */
export const DEFAULT_WINDOW = 200_000;
