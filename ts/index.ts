export { openStore, Store } from './store';
export { Session } from './session';
export { SessionError } from './errors';
export type * from './types';
export { relativeTime } from './relative-time';
export type * from './management-types';
export type * from './message-state';
export type * from './branches';
export type * from './file-snapshots';
