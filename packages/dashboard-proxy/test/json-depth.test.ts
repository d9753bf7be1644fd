import { type AgentStandIn, startAgent } from "@keyport/test-support/agent-stand-in";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeyportStandIn, startKeyportStandIn } from "./support/keyport-stand-in.js";
import { AGENT_KEY, type RunningProxy, startProxy } from "./support/proxy.js";

const ORIGIN = "http://dashboard.test";

/** `depth` objects inside each other, as JSON text. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

let agent: AgentStandIn;
let keyport: KeyportStandIn;
let proxy: RunningProxy;

beforeAll(async () => {
  agent = await startAgent();
  keyport = await startKeyportStandIn();
  proxy = await startProxy({
    KEYPORT_URL: keyport.url,
    PUBLIC_ORIGIN: ORIGIN,
    AGENT_URL: agent.url,
    AGENT_API_KEY: AGENT_KEY,
    CHAT_ACCESS: "public",
  });
});
afterAll(async () => {
  await proxy.close();
  await agent.close();
  await keyport.close();
});

describe("JSON bodies nested deeper than 64 levels", () => {
  it.each([
    ["/api/session", 65],
    ["/api/session", 10_000],
    ["/api/chat", 65],
    ["/api/chat", 10_000],
  ])("are refused by %s with 400 before anything is asked upstream (%i levels)", async (path, depth) => {
    const res = await proxy.call(path, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: nested(depth),
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      code: "BAD_REQUEST",
      message: "The JSON must not nest arrays and objects more than 64 levels deep",
    });
    expect(keyport.requests).toHaveLength(0);
    expect(agent.calls).toHaveLength(0);
  });

  it.each(["/api/session", "/api/chat"])("reach %s's own validation at 64 levels", async (path) => {
    const res = await proxy.call(path, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: nested(64),
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: "BAD_REQUEST", issues: expect.any(Array) });
  });
});
