import { describe, expectTypeOf, it } from "vitest";
import type {
  ApiKey,
  ChartResponse,
  DashboardClient,
  Introspection,
  KeyportClient,
  KeyportError,
  KeyportErrorCode,
  Market,
  OhlcResponse,
  RangeResponse,
  RouterInputs,
  RouterOutputs,
  SimplePriceResponse,
  Usage,
  Verification,
} from "../src/index.js";

declare const keyport: KeyportClient;
declare const dashboard: DashboardClient;

type Status = "active" | "revoked" | "expired";

describe("Keyport client types", () => {
  it("infers every output from the server's router, not any", () => {
    expectTypeOf<RouterOutputs["keys"]["list"]>().not.toBeAny();
    expectTypeOf<RouterOutputs["keys"]["list"]["keys"]>().toEqualTypeOf<ApiKey[]>();
    expectTypeOf<RouterOutputs["keys"]["list"]["nextCursor"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ApiKey>().not.toBeAny();
    expectTypeOf<ApiKey["id"]>().toEqualTypeOf<string>();
    expectTypeOf<ApiKey["status"]>().toEqualTypeOf<Status>();
    expectTypeOf<ApiKey["createdAt"]>().toEqualTypeOf<Date>();
    expectTypeOf<ApiKey["expiresAt"]>().toEqualTypeOf<Date | null>();
    expectTypeOf<ApiKey["rateLimit"]>().toEqualTypeOf<{ limit: number; windowSeconds: number } | null>();
    expectTypeOf<ApiKey["leak"]>().toEqualTypeOf<{
      url: string | null;
      source: string;
      reportedAt: Date;
    } | null>();
    expectTypeOf<RouterOutputs["keys"]["create"]["key"]>().toEqualTypeOf<string>();
    expectTypeOf<RouterOutputs["keys"]["roll"]["previous"]>().toEqualTypeOf<ApiKey>();
    expectTypeOf<RouterOutputs["auth"]["verify"]["expiresAt"]>().toEqualTypeOf<Date>();
  });

  it("infers Introspection from the router", () => {
    expectTypeOf<Introspection>().not.toBeAny();
    expectTypeOf<Introspection["status"]>().toEqualTypeOf<Status>();
    expectTypeOf<Introspection["credits"]>().toEqualTypeOf<{
      remaining: number;
      purchased: number;
      refillAt: Date | null;
    } | null>();
    expectTypeOf<Introspection["ratelimit"]>().toEqualTypeOf<{
      name: string;
      scope: "key" | "wallet" | "plan";
      limit: number;
      remaining: number;
      resetAt: Date;
    } | null>();
    expectTypeOf<Introspection["topUpUrl"]>().toEqualTypeOf<string | null>();
    expectTypeOf(keyport.keys.introspect.mutate).parameter(0).toEqualTypeOf<{ key: string }>();
    expectTypeOf(keyport.keys.introspect.mutate).returns.resolves.toEqualTypeOf<Introspection>();
  });

  it("infers Verification and Usage from the router", () => {
    expectTypeOf<Verification>().not.toBeAny();
    expectTypeOf<Verification["valid"]>().toEqualTypeOf<boolean>();
    expectTypeOf<Verification["code"]>().toEqualTypeOf<
      | "VALID"
      | "NOT_FOUND"
      | "REVOKED"
      | "EXPIRED"
      | "IP_NOT_ALLOWED"
      | "INSUFFICIENT_PERMISSIONS"
      | "USAGE_EXCEEDED"
      | "RATE_LIMITED"
      | "WALLET_SUSPENDED"
    >();
    expectTypeOf<Verification["permissions"]>().toEqualTypeOf<string[]>();
    expectTypeOf<Verification["credits"]>().toEqualTypeOf<{
      remaining: number;
      purchased: number;
      refillAt: Date | null;
    } | null>();
    expectTypeOf<Verification["keyId"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Verification["ratelimit"]>().toEqualTypeOf<{
      name: string;
      scope: "key" | "wallet" | "plan";
      limit: number;
      remaining: number;
      resetAt: Date;
    } | null>();
    expectTypeOf<Verification["ratelimits"]>().toEqualTypeOf<
      { name: string; scope: "key" | "wallet" | "plan"; limit: number; remaining: number; resetAt: Date }[]
    >();
    expectTypeOf<Verification["plan"]>().toEqualTypeOf<{ id: string; name: string } | null>();
    expectTypeOf(keyport.keys.verify.mutate).returns.resolves.toEqualTypeOf<Verification>();
    expectTypeOf<Usage>().not.toBeAny();
    expectTypeOf<Usage["granularity"]>().toEqualTypeOf<"hour" | "day">();
    expectTypeOf<Usage["from"]>().toEqualTypeOf<Date>();
    expectTypeOf<Usage["totals"]>().toEqualTypeOf<{
      requests: number;
      valid: number;
      rateLimited: number;
      expired: number;
      insufficientPermissions: number;
      usageExceeded: number;
      ipNotAllowed: number;
      walletSuspended: number;
      revoked: number;
    }>();
    expectTypeOf<Usage["series"][number]["start"]>().toEqualTypeOf<Date>();
    expectTypeOf(keyport.usage.get.query).returns.resolves.toEqualTypeOf<Usage>();
  });

  it("infers inputs, with optional fields optional", () => {
    expectTypeOf<RouterInputs["keys"]["create"]>().not.toBeAny();
    expectTypeOf<RouterInputs["keys"]["create"]["name"]>().toEqualTypeOf<string>();
    expectTypeOf<{ name: string }>().toExtend<RouterInputs["keys"]["create"]>();
    expectTypeOf<RouterInputs["keys"]["list"]["wallet"]>().toEqualTypeOf<string>();
    expectTypeOf<RouterInputs["keys"]["roll"]["gracePeriodSeconds"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RouterInputs["keys"]["create"]["allowedIps"]>().toEqualTypeOf<string[] | null | undefined>();
    expectTypeOf<RouterInputs["keys"]["verify"]["ip"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RouterOutputs["keys"]["create"]["apiKey"]["allowedIps"]>().toEqualTypeOf<string[] | null>();
  });

  it("types each call's argument and result", () => {
    expectTypeOf(keyport.keys.list.query).parameter(0).toEqualTypeOf<RouterInputs["keys"]["list"]>();
    expectTypeOf(keyport.keys.list.query).returns.resolves.toEqualTypeOf<RouterOutputs["keys"]["list"]>();
    expectTypeOf(keyport.keys.get.query).parameter(0).toEqualTypeOf<{ id: string }>();
    expectTypeOf(keyport.keys.get.query).returns.resolves.toEqualTypeOf<{ apiKey: ApiKey }>();
    expectTypeOf(keyport.keys.create.mutate).returns.resolves.toEqualTypeOf<
      RouterOutputs["keys"]["create"]
    >();
    expectTypeOf(keyport.signIn).returns.resolves.toEqualTypeOf<RouterOutputs["auth"]["verify"]>();
    // One method beside the procedures: signing out is the `auth.logout` procedure.
    expectTypeOf(keyport.auth.logout.mutate).returns.resolves.not.toBeAny();
    expectTypeOf<KeyportClient>().not.toHaveProperty("signOut");
  });

  it("makes wrong calls compile errors", () => {
    // @ts-expect-error name must be a string
    void keyport.keys.create.mutate({ name: 42 });
    // @ts-expect-error rateLimit.limit must be a number
    void keyport.keys.create.mutate({ name: "x", rateLimit: { limit: "10", windowSeconds: 1 } });
    // @ts-expect-error list needs the wallet
    void keyport.keys.list.query({});
    // @ts-expect-error status is active, revoked, expired or all
    void keyport.keys.list.query({ wallet: "0x", status: "deleted" });
    // @ts-expect-error list is a query, not a mutation
    void keyport.keys.list.mutate({ wallet: "0x" });
    // @ts-expect-error get needs the key's id
    void keyport.keys.get.query({ wallet: "0x" });
    // @ts-expect-error get is a query, not a mutation
    void keyport.keys.get.mutate({ id: "key_x" });
    // @ts-expect-error there is no such procedure
    void keyport.keys.remove.mutate({ id: "key_x" });
    // @ts-expect-error verify takes the secret as `key`
    void keyport.keys.verify.mutate({ secret: "kp_x" });
    // @ts-expect-error granularity is hour or day
    void keyport.usage.get.query({ wallet: "0x", granularity: "week" });
    // @ts-expect-error signIn needs the SIWE fields
    void keyport.signIn({ address: "0x1", signMessage: async () => "0x" }, { domain: "localhost" });
  });
});

describe("Dashboard client types", () => {
  it("types prices from the proxy's schemas", () => {
    expectTypeOf(dashboard.prices.simple).returns.resolves.toEqualTypeOf<SimplePriceResponse>();
    expectTypeOf<SimplePriceResponse>().toEqualTypeOf<Record<string, Record<string, number | null>>>();
    expectTypeOf(dashboard.prices.markets).returns.resolves.items.toEqualTypeOf<Market>();
    expectTypeOf<Market["id"]>().toEqualTypeOf<string>();
    expectTypeOf<Market["current_price"]>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf(dashboard.prices.chart).returns.resolves.toEqualTypeOf<ChartResponse>();
    // CoinGecko sends [timestamp, null] where it has no value.
    expectTypeOf<ChartResponse["prices"]>().toEqualTypeOf<[number, number | null][]>();
    expectTypeOf(dashboard.prices.range).returns.resolves.toEqualTypeOf<RangeResponse>();
    expectTypeOf(dashboard.prices.ohlc).returns.resolves.toEqualTypeOf<OhlcResponse>();
    expectTypeOf<OhlcResponse[number]>().toEqualTypeOf<
      [number, number | null, number | null, number | null, number | null]
    >();
    expectTypeOf(dashboard.chat.stream).returns.toEqualTypeOf<AsyncIterable<string>>();
  });

  it("makes wrong calls compile errors", () => {
    // @ts-expect-error vs_currencies is required
    void dashboard.prices.simple({ ids: "bitcoin" });
    // @ts-expect-error days is text, as in a query string
    void dashboard.prices.chart("bitcoin", { vs_currency: "usd", days: 2 });
    // @ts-expect-error OHLC days are CoinGecko's list
    void dashboard.prices.ohlc("bitcoin", { vs_currency: "usd", days: "2" });
    // @ts-expect-error a range needs from and to
    void dashboard.prices.range("bitcoin", { vs_currency: "usd", from: "2024-01-01" });
    // @ts-expect-error order is one of CoinGecko's values
    void dashboard.prices.markets({ vs_currency: "usd", order: "price_desc" });
    // @ts-expect-error a chat role is user or assistant
    dashboard.chat.stream([{ role: "robot", content: "hi" }]);
    // @ts-expect-error the browser may not send a system message (a system prompt is the proxy's setting)
    dashboard.chat.stream([{ role: "system", content: "obey" }]);
  });
});

describe("KeyportError", () => {
  it("has a closed set of codes and a numeric status", () => {
    expectTypeOf<KeyportError["code"]>().toEqualTypeOf<KeyportErrorCode>();
    expectTypeOf<"UNAUTHORIZED">().toExtend<KeyportErrorCode>();
    expectTypeOf<"NOT_A_CODE">().not.toExtend<KeyportErrorCode>();
    expectTypeOf<KeyportError["status"]>().toEqualTypeOf<number>();
  });
});
