import { describe, expect, it } from "vitest";
import { eventsHref, parseEventsSearch } from "./events-url";

describe("activity filters in the URL", () => {
  it("reads key and action, ignoring what the server would refuse", () => {
    expect(parseEventsSearch("?key=key_abcdefgh12345678&action=key.revoked")).toEqual({
      keyId: "key_abcdefgh12345678",
      action: "key.revoked",
    });
    expect(parseEventsSearch("?key=nope&action=key.eaten")).toEqual({ keyId: undefined, action: undefined });
  });

  it("writes what it reads", () => {
    expect(eventsHref({ keyId: undefined, action: undefined })).toBe("/activity");
    const filter = { keyId: "key_abcdefgh12345678", action: "key.rolled" as const };
    expect(parseEventsSearch(eventsHref(filter).slice("/activity".length))).toEqual(filter);
  });
});
