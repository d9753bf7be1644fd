import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// docs/payments.md ("The agent loop") shows examples/agent.ts whole, and agent-example.test.ts (slow
// tier) runs that file against a local chain: so the snippet readers copy is the one that runs.

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

describe("the docs' agent snippet", () => {
  it("is examples/agent.ts as it is, in a ts block of docs/payments.md", () => {
    const example = read("../examples/agent.ts");
    const blocks = [...read("../../../docs/payments.md").matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(
      (match) => match[1],
    );
    expect(blocks).toContain(example);
  });
});
