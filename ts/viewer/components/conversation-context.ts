// ConversationContext gives every block of the conversation the arrangement of the loaded
// records (results by call, sidechains by call), so a tool call finds its result and subagent.
import { createContext } from 'preact';
import type { Conversation } from '../conversation';

export const ConversationContext = createContext<Conversation>({
  top: [],
  results: new Map(),
  sidechains: new Map(),
  calls: new Set(),
});
