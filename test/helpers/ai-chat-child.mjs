// node ai-chat-child.mjs <db> <chatId>
// Loads an AI SDK chat with aiSDKChatStore(...).loadChat, as a later request of a chat app
// would, and prints its UIMessages.
import { openStore, sk } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 4) process.exit(0);

const store = openStore(process.argv[2]);
const { loadChat } = sk.aiSDKChatStore(store);
process.stdout.write(JSON.stringify(await loadChat(process.argv[3])) + '\n');
