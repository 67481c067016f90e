import { SessionError, type SessionErrorCode } from './errors';
import { loadAddon } from './loader';

/** Handle is an opaque native object (an external with a type tag). */
export type Handle = { readonly __handle: unique symbol };

/** NativeAddon is the surface of the addon (sessionkeep.node); see bridge/ in Go. */
export interface NativeAddon {
  setErrorClass(ctor: typeof SessionError): void;
  openStore(path: string | undefined, redactJSON?: string): [Handle, string];
  storeClose(store: Handle): void;
  storeFlush(store: Handle): Promise<void>;
  storeTakeWriteError(store: Handle): [code: SessionErrorCode, message: string] | undefined;
  createSession(store: Handle, optionsJSON: string): [Handle, string];
  openSession(store: Handle, id: string): [Handle, string];
  listSessions(store: Handle, optionsJSON: string | undefined): string[];
  importTranscripts(store: Handle, path: string, optionsJSON: string, onProgress: ((progressJSON: string) => void) | undefined): Promise<string>;
  exportSession(store: Handle, id: string, optionsJSON: string): Promise<string | undefined>;
  appendTranscriptPart(store: Handle, targetJSON: string, lines: string): Promise<string>;
  loadTranscriptPart(store: Handle, id: string, subpath: string): Promise<string | null>;
  transcriptParts(store: Handle, id: string): Promise<string>;
  migrateStore(from: Handle, to: Handle, onProgress: ((progressJSON: string) => void) | undefined): Promise<string>;
  sessionClose(session: Handle): void;
  appendUserMessage(session: Handle, contentJSON: string, optionsJSON: string | undefined, largeStrings: string[] | undefined): string;
  setContext(session: Handle, contextJSON: string | undefined): void;
  messages(session: Handle): string[];
  envelopes(session: Handle): string[];
  messagesAsync(session: Handle, onPart: (part: string) => void): Promise<void>;
  envelopesAsync(session: Handle, onPart: (part: string) => void): Promise<void>;
  restoreMessages(session: Handle, messagesJSON: string): void;
  turns(session: Handle): string;
  tokenTracker(session: Handle): string;
  restoreTokenTracker(session: Handle, trackerJSON: string): void;
  flush(session: Handle): Promise<void>;
  ingestMessageStart(s: Handle, id: unknown, model: unknown, provider: unknown, requestId: unknown, stateJSON: string | undefined): void;
  ingestText(s: Handle, text: unknown): void;
  ingestThinking(s: Handle, thinking: unknown): void;
  ingestSignature(s: Handle, signature: unknown): void;
  ingestRedactedThinking(s: Handle, data: unknown): void;
  ingestToolUse(s: Handle, id: unknown, name: unknown, inputJSON: string | undefined): void;
  ingestToolUseStart(s: Handle, id: unknown, name: unknown): void;
  ingestToolUseDelta(s: Handle, partialJson: unknown): void;
  ingestToolResult(s: Handle, toolUseId: unknown, contentJSON: string | undefined, isError: unknown, rawJSON: string | undefined): void;
  ingestDone(s: Handle, stopReason: unknown, stopSequence: unknown, usageJSON: string | undefined, id: unknown, model: unknown): void;
  ingestError(s: Handle, message: unknown): void;
  rejectChunk(type: unknown): never;
  buildContext(session: Handle, optionsJSON: string): string;
  buildContextAsync(session: Handle, optionsJSON: string): Promise<string>;
  validateContext(messagesJSON: string, provider: string): string;
  contextStrategies(): string;
  countContextTokens(messagesJSON: string, provider: string): string;
  debugContext(session: Handle): string;
  compactPlan(session: Handle, optionsJSON: string): Promise<string>;
  summaryStep(session: Handle, optionsJSON: string): Promise<string>;
  storeSummary(session: Handle, summaryJSON: string): Promise<string>;
  commitCompaction(session: Handle, compactionJSON: string): Promise<string>;
  summaryCut(session: Handle, optionsJSON: string): Promise<string>;
  latestSession(store: Handle, projectPath: string): [Handle, string] | undefined;
  findSession(store: Handle, idOrPrefix: string): [Handle, string];
  sessionDetails(session: Handle, optionsJSON: string | undefined): string;
  sessionWatch(session: Handle): string;
  sessionWatchVersion(session: Handle): string;
  sessionUnwatch(session: Handle): void;
  redactJSONText(json: string, redactJSON: string): string;
  sessionDetailsAsync(session: Handle, optionsJSON: string): Promise<string>;
  resolveSession(store: Handle, idOrPrefix: string): string;
  renameSession(store: Handle, id: string, title: string): void;
  archiveSession(store: Handle, id: string): void;
  unarchiveSession(store: Handle, id: string): void;
  deleteSession(store: Handle, id: string): void;
  moveProject(store: Handle, oldPath: string, newPath: string): string;
  moveProjectAsync(store: Handle, oldPath: string, newPath: string): Promise<string>;
  deleteSessionAsync(store: Handle, id: string): Promise<void>;
  listSessionsAsync(store: Handle, optionsJSON: string): Promise<string[]>;
  sessionByKey(store: Handle, key: string, workspace: string | undefined, optionsJSON: string): [Handle, string] | undefined;
  workspaceStorePath(workspaceId: string, dir: string | undefined): string;
  defaultStorePath(): string;
  hostedState(session: Handle): string;
  sessionStatus(session: Handle): string;
  commitCheckpoint(session: Handle, pubsubIdJSON: string): void;
  updateSdkSession(session: Handle, id: string): void;
  clearSdkSession(session: Handle): void;
  storeMessage(session: Handle, role: string, content: string): void;
  getHistory(session: Handle, limitJSON: string | undefined): string;
  clearHistory(session: Handle): void;
  formatMissedContext(session: Handle, optionsJSON: string): string;
  recoveredSessions(store: Handle): string;
  verifySession(session: Handle): void;
  search(store: Handle, queryJSON: string): string;
  searchAsync(store: Handle, queryJSON: string): Promise<string>;
  stats(store: Handle, optionsJSON: string): string;
  statsAsync(store: Handle, optionsJSON: string): Promise<string>;
  verifyAsync(store: Handle, optionsJSON: string): Promise<string>;
  ingestBlock(s: Handle, blockJSON: string | undefined): void;
  ingestBlockStart(s: Handle, blockJSON: string | undefined): void;
  ingestBlockFields(s: Handle, fieldsJSON: string | undefined): void;
  lastEnvelopeAsync(session: Handle): Promise<string>;
  tree(session: Handle): string;
  treeAsync(session: Handle): Promise<string>;
  rewind(session: Handle, toUuid: string): Promise<void>;
  fork(session: Handle, fromUuid: string | undefined): Promise<[Handle, string]>;
  snapshotFiles(session: Handle, pathsJSON: string, optionsJSON: string | undefined): Promise<string>;
  fileSnapshots(session: Handle, messageUuid: string | undefined): string;
  fileSnapshotsAsync(session: Handle, messageUuid: string | undefined): Promise<string>;
  fileContent(session: Handle, snapshotId: string, path: string): Buffer | null;
  fileContentAsync(session: Handle, snapshotId: string, path: string): Promise<Buffer | null>;
  restoreFiles(session: Handle, messageUuid: string, optionsJSON: string): Promise<string>;
  tail(session: Handle, n: unknown): string[];
  tailAsync(session: Handle, n: unknown, onPart: (part: string) => void): Promise<void>;
}

/** loaded is whether load has put the addon in place of the stand-ins. */
let loaded = false;

/**
 * load loads the addon ($SESSIONKEEP_ADDON_PATH's, a platform package's, else a local build;
 * see loader.ts), registers SessionError as the class of its errors and puts it in place of
 * the stand-ins below, once.
 */
function load(): void {
  if (loaded) return;
  const addon = loadAddon<NativeAddon>().addon;
  addon.setErrorClass(SessionError);
  raw = addon;
  native = wrap(addon);
  loaded = true;
}

/**
 * onFirstCall is a stand-in for the addon that loads it when one of its functions is first
 * read or set: importing the package loads no native code, so help, types and the CLI's usage work
 * without it, and a missing addon is an error of the first call (ADDON_NOT_FOUND).
 */
function onFirstCall(current: () => NativeAddon): NativeAddon {
  return new Proxy({} as NativeAddon, {
    get: (_target, key) => {
      load();
      return Reflect.get(current(), key);
    },
    // A stand-in someone kept from before the load still reaches the addon: what is set on
    // it (a test wrapping one function) is set on the addon the package calls.
    set: (_target, key, value) => {
      load();
      return Reflect.set(current(), key, value);
    },
  });
}

/** raw is the loaded addon, with SessionError registered as the class of its errors. */
export let raw: NativeAddon = onFirstCall(() => raw);

/**
 * beforeCall runs before every call through native: it hands over the stream deltas joined
 * on the JS side (see pending.ts), so that whatever is called sees them recorded first.
 */
let beforeCall = (): void => {};

/** setBeforeCall sets what runs before every call through native. */
export function setBeforeCall(fn: () => void): void {
  beforeCall = fn;
}

/** wrap is the addon as the package calls it: every function runs beforeCall first. */
function wrap(addon: NativeAddon): NativeAddon {
  return Object.fromEntries(
    Object.entries(addon).map(([name, fn]) => [
      name,
      typeof fn === 'function' ? function (this: unknown, ...args: unknown[]) {
        beforeCall();
        return fn.apply(addon, args);
      } : fn,
    ]),
  ) as unknown as NativeAddon;
}

/** native is the addon as the package calls it: every function runs beforeCall first. */
export let native: NativeAddon = onFirstCall(() => native);
