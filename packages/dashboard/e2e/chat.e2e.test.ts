import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Session } from "./support/browser.js";
import { signIn } from "./support/flows.js";
import type { Stack } from "./support/stack.js";
import { useDashboardSuite } from "./support/suite.js";

const agentRequest = z.object({ messages: z.array(z.object({ role: z.string(), content: z.string() })) });

async function ask(page: Page, question: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(question);
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
}

describe("chat in the browser", () => {
  let stack: Stack;
  let session: Session;
  // Every same-origin path the page asked for, to show that an <img src=x> never loaded.
  const pathsRequested: string[] = [];

  useDashboardSuite({}, (opened) => ({ stack, session } = opened));
  beforeAll(async () => {
    session.page.on("request", (request) => pathsRequested.push(new URL(request.url()).pathname));
    await session.page.goto(stack.origin);
    await signIn(session.page);
    await session.page.getByRole("link", { name: "Chat" }).click();
  });

  it("streams the answer in as it arrives, and each question carries the conversation", async () => {
    const { page } = session;
    const { agent } = stack;
    agent.behave({ kind: "openai", first: ["Hello", " from"], rest: [" the agent."] });
    await ask(page, "Hi there");
    // The agent holds the rest back: the first words are on screen while the answer is still open.
    await page.getByText("Hello from", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Stop" }).waitFor();
    agent.release();
    await page.getByText("Hello from the agent.", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached" });
    expect(agentRequest.parse(JSON.parse(agent.calls[0]?.body ?? "")).messages).toEqual([
      { role: "user", content: "Hi there" },
    ]);

    agent.behave({ kind: "openai", first: ["Again."], rest: [] });
    await ask(page, "And now?");
    agent.release();
    await page.getByText("Again.", { exact: true }).waitFor();
    expect(agentRequest.parse(JSON.parse(agent.calls[1]?.body ?? "")).messages).toEqual([
      { role: "user", content: "Hi there" },
      { role: "assistant", content: "Hello from the agent." },
      { role: "user", content: "And now?" },
    ]);
  });

  it("Stop ends the answer and the proxy aborts the agent's request", async () => {
    const { page } = session;
    const { agent } = stack;
    agent.behave({ kind: "openai", first: ["A long answer begins"], rest: [" and never comes."] });
    await ask(page, "Tell me everything");
    await page.getByText("A long answer begins", { exact: true }).waitFor();
    const call = agent.calls.at(-1);
    await page.getByRole("button", { name: "Stop" }).click();
    expect(await call?.ended).toBe("aborted");
    await page.getByText("(stopped)").last().waitFor();
    agent.release();
  });

  it("renders an agent's HTML and javascript: links as inert text", async () => {
    const { page } = session;
    const { agent } = stack;
    agent.behave({
      kind: "openai",
      first: [
        'Look <img src=x onerror="window.__pwned=1;alert(1)"> here ',
        "[click me](javascript:window.__pwned=2) and ",
        "<script>window.__pwned=3</script> [fine](https://example.com/docs).",
      ],
      rest: [],
    });
    await ask(page, "Show me something");
    agent.release();
    const answer = page.locator(".turn-assistant").last();
    await answer.getByText(/and .* fine\.$/).waitFor();
    await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached" });
    expect(await page.evaluate(() => Reflect.get(window, "__pwned"))).toBeUndefined();
    expect(await answer.locator("img, script").count()).toBe(0);
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await answer.textContent()).toContain("click me");
    expect(pathsRequested).not.toContain("/x");
  });
});
