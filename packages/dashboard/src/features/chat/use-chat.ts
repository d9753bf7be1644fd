import { useCallback, useEffect, useRef, useState } from "react";
import { dashboardClient } from "../../lib/dashboard-client";
import { forgetTabMemory, readTabMemory, writeTabMemory } from "../../lib/tab-memory";
import { conversationSchema, lastQuestion, messagesToSend, type Turn } from "./conversation";

/**
 * The conversation and its one streaming answer. `send` asks with the whole conversation so far and
 * appends the answer as its text arrives; `stop` aborts the request (the proxy then aborts upstream).
 * The conversation is kept for the tab's life (sessionStorage, per wallet), so leaving the view and
 * coming back keeps it; `newChat` starts over and `retry` asks a failed question again.
 */
export function useChat(wallet: string) {
  const memoryKey = `chat:${wallet.toLowerCase()}`;
  const [turns, setTurns] = useState<Turn[]>(() => readTabMemory(memoryKey, conversationSchema) ?? []);
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);
  const latest = useRef({ turns, streaming });
  latest.current = { turns, streaming };

  // Kept whenever an answer is complete (not on every streamed piece), and when the view is left.
  useEffect(() => {
    if (!streaming) writeTabMemory(memoryKey, turns);
  }, [memoryKey, streaming, turns]);
  useEffect(
    () => () => {
      // Leaving the view ends a running answer instead of reading it into nowhere.
      controller.current?.abort();
      const { turns: kept, streaming: cut } = latest.current;
      writeTabMemory(memoryKey, cut ? markStopped(kept) : kept);
    },
    [memoryKey],
  );

  const ask = useCallback(async (before: Turn[], question: string) => {
    const asked: Turn[] = [...before, { role: "user", content: question }];
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
      appendToAnswer((answer) => ({ ...answer, failed: true }));
    } finally {
      if (controller.current === abort) controller.current = null;
      setStreaming(false);
    }
  }, []);

  const send = useCallback(
    async (question: string) => {
      if (streaming || question.trim() === "") return;
      await ask(turns, question);
    },
    [ask, streaming, turns],
  );

  const retry = useCallback(async () => {
    const last = lastQuestion(turns);
    if (streaming || last === undefined) return;
    await ask(last.before, last.question);
  }, [ask, streaming, turns]);

  const stop = useCallback(() => controller.current?.abort(), []);

  const newChat = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setTurns([]);
    setError(null);
    forgetTabMemory(memoryKey);
  }, [memoryKey]);

  return { turns, streaming, error, send, stop, retry, newChat };
}

// An answer cut by leaving the view reads as stopped when the view is back.
function markStopped(turns: Turn[]): Turn[] {
  const last = turns[turns.length - 1];
  if (last?.role !== "assistant") return turns;
  return [...turns.slice(0, -1), { ...last, stopped: true }];
}
