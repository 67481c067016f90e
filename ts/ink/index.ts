// sessionkeep/ink: the Ink kit. An ES module (Ink 6 is ESM-only); it reaches the core, a
// CommonJS module, through the package's main entry.
export { usePersistentSession } from './use-persistent-session.js';
export type { UsePersistentSessionOptions, PersistentSession } from './use-persistent-session.js';
export type { SessionSnapshot } from './session-owner.js';
export { SessionPicker } from './SessionPicker.js';
export type { SessionPickerProps } from './SessionPicker.js';
export { ContextMeter } from './ContextMeter.js';
export type { ContextMeterProps, MeteredContext } from './ContextMeter.js';
export { formatRelativeTime, formatTokens } from './format.js';
export { useSessionCommands } from './use-session-commands.js';
export type { UseSessionCommandsOptions, SessionCommands, PendingConfirmation } from './use-session-commands.js';
export { CommandCompletions } from './CommandCompletions.js';
export type { CommandCompletionsProps } from './CommandCompletions.js';
