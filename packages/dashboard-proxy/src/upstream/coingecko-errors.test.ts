import { describe, expect, it } from "vitest";
import { classifyRefusal, readErrorCode } from "./coingecko-errors.js";

describe("readErrorCode", () => {
  const read = (body: string) => readErrorCode(new Response(body, { status: 401 }));
  it("reads { status: { error_code } }", async () => {
    expect(await read('{"status":{"error_code":10002,"error_message":"x"}}')).toBe(10002);
  });
  it("reads { error: { status: { error_code } } } (CoinGecko's 10012)", async () => {
    expect(await read('{"error":{"status":{"timestamp":"t","error_code":10012,"error_message":"x"}}}')).toBe(
      10012,
    );
  });
  it.each(["", "not json", '{"error":"nope"}', '{"status":"odd"}', "[1]"])(
    "is undefined for %j",
    async (body) => {
      expect(await read(body)).toBeUndefined();
    },
  );
});

describe("classifyRefusal", () => {
  it("10012 and 10005 are the plan's limits", () => {
    expect(classifyRefusal(401, 10012)).toMatchObject({ kind: "plan_limit" });
    expect(classifyRefusal(403, 10005)).toMatchObject({ kind: "plan_limit" });
  });
  it("a key on the other plan's host names COINGECKO_PLAN", () => {
    expect(classifyRefusal(401, 10010)).toMatchObject({ kind: "misconfigured", setting: "COINGECKO_PLAN" });
    expect(classifyRefusal(401, 10011)).toMatchObject({ kind: "misconfigured", setting: "COINGECKO_PLAN" });
  });
  it("a refused key names COINGECKO_API_KEY", () => {
    expect(classifyRefusal(401, 10002)).toMatchObject({
      kind: "misconfigured",
      setting: "COINGECKO_API_KEY",
    });
    expect(classifyRefusal(401, undefined)).toMatchObject({
      kind: "misconfigured",
      setting: "COINGECKO_API_KEY",
    });
  });
  it("keeps 404, 400 and the rest as before", () => {
    expect(classifyRefusal(404, undefined).kind).toBe("not_found");
    expect(classifyRefusal(400, undefined).kind).toBe("rejected");
    expect(classifyRefusal(500, undefined).kind).toBe("bad_gateway");
    expect(classifyRefusal(403, 1020).kind).toBe("bad_gateway");
  });
});
