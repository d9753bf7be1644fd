import { useCallback, useEffect, useRef, useState } from "react";
import { dashboardClient } from "../../lib/dashboard-client";
import { messagesToSend, type Turn } from "./conversation";

/**
 * The conversation and its one streaming answer. `send` asks with the whole conversation so far and
 * appends the answer as its text arrives; `stop` aborts the request (the proxy then aborts upstream).
 */
export function useChat() {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the view ends a running answer instead of reading it into nowhere.
  useEffect(() => () => controller.current?.abort(), []);

  const send = useCallback(
    async (question: string) => {
      if (streaming || question.trim() === "") return;
      const asked: Turn[] = [...turns, { role: "user", content: question }];
      setTurns([...asked, { role: "assistant", content: "" }]);
      setError(null);
      setStreaming(true);
      const abort = new AbortController();
      controller.current = abort;
      const appendToAnswer = (update: (answer: Turn) => Turn) =>
        setTurns((current) => {
          const answer = current[current.length - 1];
          return answer ? [...current.slice(0, -1), update(answer)] : current;
        });
      try {
        for await (const chunk of dashboardClient.chat.stream(messagesToSend(asked), {
          signal: abort.signal,
        })) {
          appendToAnswer((answer) => ({ ...answer, content: answer.content + chunk }));
        }
        if (abort.signal.aborted) appendToAnswer((answer) => ({ ...answer, stopped: true }));
      } catch (caught) {
        setError(caught);
        appendToAnswer((answer) => ({ ...answer, stopped: true }));
      } finally {
        controller.current = null;
        setStreaming(false);
      }
    },
    [streaming, turns],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  return { turns, streaming, error, send, stop };
}
