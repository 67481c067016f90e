export { openStore, openWorkspaceStore, Store } from './store';
export { Session } from './session';
export { SessionError } from './errors';
export type * from './types';
export { relativeTime } from './relative-time';
export type * from './management-types';
export { handleSignals } from './shutdown';
export type * from './message-state';
