// The package's entry point. What opening a store needs is loaded with it; everything else
// (context building, strategies, the resume prompt, the SDK adapters, the slash commands) is
// loaded on first use through onFirstUse stand-ins, so that an app that only opens a store
// carries none of it. The lazy exports are written as the getters TypeScript itself emits
// for a re-export, which is the form Node's import() of a CommonJS module recognises as a
// named export (cjs-module-lexer); `export declare` gives them their types.
import { onFirstUse } from './lazy';

export { openStore, openWorkspaceStore, Store } from './store';
export type { OpenStoreOptions } from './store';
export { Session } from './session';
export { SessionError } from './errors';
export type { SessionErrorCode, ArgTypeError } from './errors';
export { handleSignals } from './shutdown';
export type * from './types';
export type * from './context-types';
export type * from './management-types';
export type * from './message-state';
export type * from './interop-types';
export type * from './migrate-types';
export type * from './verify-types';
export type { RedactOptions } from './redact';
export type { ResumeRequest, Resolution, ResolveSessionOptions, PromptResumeOptions } from './resume';
export type { AISDKChatStore, ChatMessage } from './adapters/ai-sdk-chat';
export type { ClaudeAgentSDKMessage, ClaudeAgentSDKOptions } from './adapters/claude-agent-sdk';
export type { HistoryChangeBlock, HistoryStartBlock } from './adapters/history';
export type { AdapterOptions, StreamSource } from './adapters/common';
export type { AnthropicStreamEvent } from './adapters/anthropic';
export type { OpenAIStreamEvent } from './adapters/openai';
export type { AISDKStreamPart } from './adapters/ai-sdk';
export type * from './branches';
export type * from './file-snapshots';
export type * from './commands/types';

type Context = typeof import('./context');
type Strategies = typeof import('./strategies');
type RelativeTime = typeof import('./relative-time');
type Resume = typeof import('./resume');
type Anthropic = typeof import('./adapters/anthropic');
type OpenAI = typeof import('./adapters/openai');
type AISDK = typeof import('./adapters/ai-sdk');
type AISDKChat = typeof import('./adapters/ai-sdk-chat');
type ClaudeAgentSDK = typeof import('./adapters/claude-agent-sdk');
type Commands = typeof import('./commands');

const context = onFirstUse(() => require('./context') as Context);
const strategies = onFirstUse(() => require('./strategies') as Strategies);
const relativeTimeModule = onFirstUse(() => require('./relative-time') as RelativeTime);
const resume = onFirstUse(() => require('./resume') as Resume);
const anthropic = onFirstUse(() => require('./adapters/anthropic') as Anthropic);
const openai = onFirstUse(() => require('./adapters/openai') as OpenAI);
const aiSDK = onFirstUse(() => require('./adapters/ai-sdk') as AISDK);
const aiSDKChat = onFirstUse(() => require('./adapters/ai-sdk-chat') as AISDKChat);
const claudeAgentSDK = onFirstUse(() => require('./adapters/claude-agent-sdk') as ClaudeAgentSDK);
const commands = onFirstUse(() => require('./commands') as Commands);

export declare const validateContext: Context['validateContext'];
export declare const registerStrategy: Strategies['registerStrategy'];
export declare const relativeTime: RelativeTime['relativeTime'];
export declare const parseResumeArgs: Resume['parseResumeArgs'];
export declare const resolveSession: Resume['resolveSession'];
export declare const promptResume: Resume['promptResume'];
export declare const fromAnthropicStream: Anthropic['fromAnthropicStream'];
export declare const fromOpenAIStream: OpenAI['fromOpenAIStream'];
export declare const fromAISDKStream: AISDK['fromAISDKStream'];
export declare const aiSDKChatStore: AISDKChat['aiSDKChatStore'];
export declare const fromClaudeAgentSDK: ClaudeAgentSDK['fromClaudeAgentSDK'];
export declare const runSessionCommand: Commands['runSessionCommand'];
export declare const sessionCommands: Commands['sessionCommands'];
export declare const completeSessionCommand: Commands['completeSessionCommand'];

Object.defineProperty(exports, "validateContext", { enumerable: true, get: function () { return context.validateContext; } });
Object.defineProperty(exports, "registerStrategy", { enumerable: true, get: function () { return strategies.registerStrategy; } });
Object.defineProperty(exports, "relativeTime", { enumerable: true, get: function () { return relativeTimeModule.relativeTime; } });
Object.defineProperty(exports, "parseResumeArgs", { enumerable: true, get: function () { return resume.parseResumeArgs; } });
Object.defineProperty(exports, "resolveSession", { enumerable: true, get: function () { return resume.resolveSession; } });
Object.defineProperty(exports, "promptResume", { enumerable: true, get: function () { return resume.promptResume; } });
Object.defineProperty(exports, "fromAnthropicStream", { enumerable: true, get: function () { return anthropic.fromAnthropicStream; } });
Object.defineProperty(exports, "fromOpenAIStream", { enumerable: true, get: function () { return openai.fromOpenAIStream; } });
Object.defineProperty(exports, "fromAISDKStream", { enumerable: true, get: function () { return aiSDK.fromAISDKStream; } });
Object.defineProperty(exports, "aiSDKChatStore", { enumerable: true, get: function () { return aiSDKChat.aiSDKChatStore; } });
Object.defineProperty(exports, "fromClaudeAgentSDK", { enumerable: true, get: function () { return claudeAgentSDK.fromClaudeAgentSDK; } });
Object.defineProperty(exports, "runSessionCommand", { enumerable: true, get: function () { return commands.runSessionCommand; } });
Object.defineProperty(exports, "sessionCommands", { enumerable: true, get: function () { return commands.sessionCommands; } });
Object.defineProperty(exports, "completeSessionCommand", { enumerable: true, get: function () { return commands.completeSessionCommand; } });
