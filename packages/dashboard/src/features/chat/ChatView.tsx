import { type FormEvent, type KeyboardEvent, useState } from "react";
import { ErrorMessage } from "../../ui/Status";
import { Markdown } from "./Markdown";
import { useChat } from "./use-chat";

/**
 * Chat with the agent: a "Message" box (Enter sends, Shift+Enter breaks the line), "Send", "Stop", and
 * "New chat". The conversation is kept for the tab's life; a failed answer names the agent and offers "Retry".
 */
export function ChatView({ wallet }: { wallet: string }) {
  const chat = useChat(wallet);
  const [draft, setDraft] = useState("");

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (chat.streaming || draft.trim() === "") return;
    void chat.send(draft);
    setDraft("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  }

  return (
    <section aria-labelledby="chat-title" className="chat">
      <div className="view-header">
        <h1 id="chat-title">Chat</h1>
        <button
          type="button"
          className="button"
          onClick={chat.newChat}
          disabled={chat.turns.length === 0 && !chat.streaming}
        >
          New chat
        </button>
      </div>
      <div className="chat-log">
        {chat.turns.length === 0 ? (
          <p className="muted">
            Ask about markets, your keys or anything else. Answers stream in as they arrive.
          </p>
        ) : (
          chat.turns.map((turn, index) => (
            <article
              // The conversation only grows at its end: an index is a stable key here.
              // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
              key={index}
              className={`turn turn-${turn.role}`}
              aria-busy={chat.streaming && index === chat.turns.length - 1}
            >
              <h2 className="visually-hidden">{turn.role === "user" ? "You" : "Agent"}</h2>
              {turn.role === "user" ? (
                <p className="user-text">{turn.content}</p>
              ) : (
                <Markdown text={turn.content} />
              )}
              {turn.stopped ? <p className="muted">(stopped)</p> : null}
              {turn.failed ? <p className="muted">(incomplete: the chat agent failed)</p> : null}
            </article>
          ))
        )}
      </div>
      <p role="status" className="visually-hidden">
        {chat.streaming ? "The agent is answering…" : chat.turns.length > 0 ? "Answer complete." : ""}
      </p>
      {chat.error ? (
        <ErrorMessage service="agent" error={chat.error} onRetry={() => void chat.retry()} />
      ) : null}
      <form className="chat-form" onSubmit={submit}>
        <label className="field chat-input">
          <span>Message</span>
          <textarea
            rows={2}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            maxLength={8_000}
          />
        </label>
        <div className="chat-actions">
          {chat.streaming ? (
            <button type="button" className="button" onClick={chat.stop}>
              Stop
            </button>
          ) : null}
          <button type="submit" className="button button-primary" disabled={chat.streaming}>
            Send
          </button>
        </div>
      </form>
    </section>
  );
}
