import { describe, expect, it } from "vitest";
import { readProcedurePath } from "./allow-list.js";

describe("readProcedurePath", () => {
  it.each(["keys.update", "limits.get", "limits.set", "events.list"])(
    "accepts the key-policy procedure %j the dashboard calls",
    (path) => {
      expect(readProcedurePath(path)).toEqual({ ok: true, procedures: [path] });
    },
  );

  it("accepts allowed procedures, alone or batched", () => {
    expect(readProcedurePath("keys.list")).toEqual({ ok: true, procedures: ["keys.list"] });
    expect(readProcedurePath("keys.list,usage.get")).toEqual({
      ok: true,
      procedures: ["keys.list", "usage.get"],
    });
  });

  it.each(["auth.verify", "auth.logout", "keys.verify", "keys.list,auth.verify", "", "keys.list,", "keys"])(
    "refuses %j",
    (path) => {
      expect(readProcedurePath(path)).toEqual({ ok: false, reason: "not_allowed" });
    },
  );

  it("refuses any percent-encoding before looking further", () => {
    expect(readProcedurePath("auth%2Everify")).toEqual({ ok: false, reason: "encoded" });
    expect(readProcedurePath("keys%2Elist")).toEqual({ ok: false, reason: "encoded" });
  });
});
