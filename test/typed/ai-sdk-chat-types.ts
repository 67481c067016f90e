// The AI SDK chat store typed with the installed `ai` package's UIMessage: test 56 checks
// this file with tsc, so UIMessages must go in and come back out without a cast.
import type { UIMessage } from 'ai';
import type { aiSDKChatStore, Store } from '../../dist/index';

type Metadata = { createdAt: number };
export type ChatUIMessage = UIMessage<Metadata>;

export async function roundTrip(chatStore: typeof aiSDKChatStore, store: Store, messages: ChatUIMessage[]): Promise<ChatUIMessage[]> {
  const { createChat, saveChat, loadChat } = chatStore<ChatUIMessage>(store);
  const chatId = await createChat();
  await saveChat({ chatId, messages });
  return loadChat(chatId);
}
