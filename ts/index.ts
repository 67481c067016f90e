export { openStore, Store } from './store';
export { Session } from './session';
export { SessionError } from './errors';
export type * from './types';
export type * from './message-state';
export type * from './interop-types';
