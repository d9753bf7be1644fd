import { ChatView } from "../features/chat/ChatView";

/** `/chat` (lazy-loaded: it carries the markdown renderer and the stream reader). */
export function ChatRoute({ wallet }: { wallet: string }) {
  return <ChatView wallet={wallet} />;
}
