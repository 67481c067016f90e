import type { Store } from '../store';
import type { Style } from '../render/style';

/** Context is what a command runs with: the open store, where to write, and how. */
export interface Context {
  store: Store;
  /** Writes to stdout. */
  out(text: string): void;
  /** Styles for stdout: colours only on a terminal. */
  style: Style;
  /** The width of stdout. */
  width: number;
  /** --json: print JSON for scripts instead of text for people. */
  json: boolean;
}

/** printJSON writes v as indented JSON, for --json. */
export function printJSON(ctx: Context, v: unknown): void {
  ctx.out(JSON.stringify(v, null, 2) + '\n');
}
