import { appRouter } from "@keyport/server";
import { describe, expect, it } from "vitest";
import { PROCEDURE_FORWARDING, readProcedurePath } from "../src/trpc/allow-list.js";

// A built router is its record of procedures (a procedure is a function, a nested router a plain
// object) plus tRPC's own members: `createCaller`, and internals whose names start with "_", which
// are skipped without being read.
function isRouterMember(key: string): boolean {
  return key === "createCaller" || key.startsWith("_");
}

/** The dotted paths of every procedure in a router's record, walked as its public type describes it. */
function procedurePaths(record: object, prefix = ""): string[] {
  return Object.entries(record).flatMap(([key, value]: [string, unknown]) => {
    if (prefix === "" && isRouterMember(key)) return [];
    if (typeof value === "function") return [`${prefix}${key}`];
    if (typeof value === "object" && value !== null) return procedurePaths(value, `${prefix}${key}.`);
    return [];
  });
}

const decisions = Object.entries(PROCEDURE_FORWARDING);

describe("the /trpc allow-list against the server's router", () => {
  it("decides every procedure the running server has, and none it lacks", () => {
    const served = procedurePaths(appRouter).sort();
    expect(served).toContain("keys.list");
    expect(served).toEqual(Object.keys(PROCEDURE_FORWARDING).sort());
  });

  it.each(decisions)("forwards %j exactly when it is decided so, and says why not", (path, forwarding) => {
    if (forwarding.forwarded) {
      expect(readProcedurePath(path)).toEqual({ ok: true, procedures: [path] });
    } else {
      expect(readProcedurePath(path)).toEqual({ ok: false, reason: "not_allowed" });
      expect(forwarding.because.length).toBeGreaterThan(10);
    }
  });
});
