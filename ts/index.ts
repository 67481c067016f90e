export { openStore, Store } from './store';
export { Session } from './session';
export { SessionError } from './errors';
export type * from './types';
export { validateContext } from './context';
export type * from './context-types';
