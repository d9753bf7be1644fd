import { describe, expect, it } from "vitest";
import { firstOutsidePlan, fitsPlan } from "./permission-fit.js";

describe("a held permission fits a plan", () => {
  it("when a plan pattern equals it", () => {
    expect(fitsPlan("prices:read", ["prices:read"])).toBe(true);
    expect(fitsPlan("prices:write", ["prices:read"])).toBe(false);
  });

  it("when the plan allows any (*)", () => {
    expect(fitsPlan("anything:at_all", ["*"])).toBe(true);
    expect(fitsPlan("*", ["*"])).toBe(true);
  });

  it("when a plan pattern ending in * is a prefix of it", () => {
    expect(fitsPlan("prices:read", ["prices:*"])).toBe(true);
    expect(fitsPlan("prices:*", ["prices:*"])).toBe(true);
    expect(fitsPlan("prices:history:read", ["prices:*"])).toBe(true);
    expect(fitsPlan("chat:send", ["prices:*"])).toBe(false);
  });

  it("never when the held pattern is wider than the plan's", () => {
    expect(fitsPlan("*", ["prices:*"])).toBe(false);
    expect(fitsPlan("prices:*", ["prices:read"])).toBe(false);
    expect(fitsPlan("prices*", ["prices:*"])).toBe(false);
  });

  it("names the first held permission outside the plan", () => {
    expect(firstOutsidePlan(["prices:read", "chat:send", "admin"], ["prices:*"])).toBe("chat:send");
    expect(firstOutsidePlan(["prices:read"], ["prices:*"])).toBeUndefined();
    expect(firstOutsidePlan([], ["prices:read"])).toBeUndefined();
  });
});
