/**
 * disposeSymbol is Symbol.dispose, which `using` calls at the end of its block (TypeScript 5.2+,
 * Node 24+ natively). Nodes that predate it (Node 18.17, early Node 20) get the symbol Node's own
 * polyfill registered, Symbol.for('nodejs.dispose'), without sessionkeep changing the global.
 */
export const disposeSymbol: typeof Symbol.dispose =
  (Symbol as { dispose?: typeof Symbol.dispose }).dispose ?? (Symbol.for('nodejs.dispose') as typeof Symbol.dispose);
