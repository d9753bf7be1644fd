import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigningKeySet } from "../src/leaks/signing-keys.js";
import { type KeysEndpointStandIn, makeScannerKey, startKeysEndpoint } from "./support/scanner-stand-in.js";

describe("the scanner's signing keys", () => {
  const first = makeScannerKey();
  const rotated = makeScannerKey();
  let endpoint: KeysEndpointStandIn;

  beforeAll(async () => {
    endpoint = await startKeysEndpoint([first]);
  });
  afterAll(() => endpoint.close());

  it("uses a newly published key id at once when the last fetch is a few seconds old, at most one fetch per 5 s", async () => {
    let clock = 1_000_000;
    const keys = createSigningKeySet({
      url: endpoint.url,
      logger: pino({ level: "silent" }),
      now: () => clock,
    });
    const before = endpoint.fetches();
    expect(await keys.find(first.identifier)).not.toBe("unknown");
    expect(endpoint.fetches() - before).toBe(1);

    // GitHub publishes a new key; a report signed with it arrives 6 s later.
    endpoint.publish([rotated, first]);
    clock += 6_000;
    expect(typeof (await keys.find(rotated.identifier))).toBe("object");
    expect(endpoint.fetches() - before).toBe(2);

    // Made-up identifiers right after: answered from the set, no fetch until 5 s have passed.
    clock += 1_000;
    expect(await keys.find("made-up-1")).toBe("unknown");
    expect(await keys.find("made-up-2")).toBe("unknown");
    expect(endpoint.fetches() - before).toBe(2);
    clock += 5_000;
    expect(await keys.find("made-up-3")).toBe("unknown");
    expect(endpoint.fetches() - before).toBe(3);
  });
});
