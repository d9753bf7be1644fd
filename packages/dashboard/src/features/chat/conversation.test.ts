import { describe, expect, it } from "vitest";
import { lastQuestion, messagesToSend } from "./conversation";

describe("messagesToSend", () => {
  it("carries the conversation so far, without empty answers", () => {
    expect(
      messagesToSend([
        { role: "user", content: "Hi" },
        { role: "assistant", content: "", stopped: true },
        { role: "user", content: "Again" },
      ]),
    ).toEqual([
      { role: "user", content: "Hi" },
      { role: "user", content: "Again" },
    ]);
  });

  it("keeps within the proxy's limits", () => {
    const turns = Array.from({ length: 60 }, (_, index) => ({ role: "user" as const, content: `q${index}` }));
    const sent = messagesToSend(turns);
    expect(sent).toHaveLength(50);
    expect(sent[0]?.content).toBe("q10");
    expect(messagesToSend([{ role: "assistant", content: "x".repeat(9_000) }])[0]?.content).toHaveLength(
      8_000,
    );
  });
});

describe("lastQuestion", () => {
  it("finds the question to ask again and the conversation before it", () => {
    expect(
      lastQuestion([
        { role: "user", content: "one" },
        { role: "assistant", content: "answer" },
        { role: "user", content: "two" },
        { role: "assistant", content: "half", failed: true },
      ]),
    ).toEqual({
      before: [
        { role: "user", content: "one" },
        { role: "assistant", content: "answer" },
      ],
      question: "two",
    });
    expect(lastQuestion([])).toBeUndefined();
  });
});
