import { describe, expect, it } from "vitest";
import {
  auditHref,
  defaultDayRange,
  isWalletSearch,
  parseAuditSearch,
  parseDayRange,
  parseWalletsSearch,
  paymentsCsvHref,
  paymentsHref,
  rangeInstants,
  walletsHref,
} from "./operator-url";

const NOW = new Date("2026-11-29T10:15:00Z");
const WALLET = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

describe("the wallets table's URL", () => {
  it("reads a search and a sort, and writes them back without the defaults", () => {
    expect(parseWalletsSearch("?q=0xAb12&sort=activeKeys")).toEqual({ q: "0xAb12", sort: "activeKeys" });
    expect(walletsHref({ q: "0xAb12", sort: "activeKeys" })).toBe(
      "/operator/wallets?q=0xAb12&sort=activeKeys",
    );
    expect(walletsHref({ q: "", sort: "lastActive" })).toBe("/operator/wallets");
  });

  it("falls back to every wallet, last active first, for what the server would refuse", () => {
    expect(parseWalletsSearch("?q=vitalik&sort=paid")).toEqual({ q: "", sort: "lastActive" });
    expect(parseWalletsSearch("")).toEqual({ q: "", sort: "lastActive" });
    expect(isWalletSearch("ab12")).toBe(true);
    expect(isWalletSearch("0x")).toBe(true);
    expect(isWalletSearch("zz")).toBe(false);
    expect(isWalletSearch(`${WALLET}0`)).toBe(false);
  });
});

describe("the payments view's range", () => {
  it("defaults to the 30 UTC days ending today", () => {
    expect(defaultDayRange(NOW)).toEqual({ from: "2026-10-31", to: "2026-11-29" });
    expect(parseDayRange("", NOW)).toEqual({ from: "2026-10-31", to: "2026-11-29" });
  });

  it("keeps a valid range and refuses a reversed or malformed one", () => {
    expect(parseDayRange("?from=2026-01-01&to=2026-01-31", NOW)).toEqual({
      from: "2026-01-01",
      to: "2026-01-31",
    });
    expect(parseDayRange("?from=2026-02-01&to=2026-01-31", NOW)).toEqual(defaultDayRange(NOW));
    expect(parseDayRange("?from=2026-13-45&to=2026-12-31", NOW)).toEqual(defaultDayRange(NOW));
    expect(parseDayRange("?from=yesterday&to=2026-01-31", NOW)).toEqual(defaultDayRange(NOW));
  });

  it("reads the last day whole: to is the next day's midnight, exclusive", () => {
    const range = { from: "2026-01-01", to: "2026-01-31" };
    expect(rangeInstants(range)).toEqual({
      from: new Date("2026-01-01T00:00:00.000Z"),
      to: new Date("2026-02-01T00:00:00.000Z"),
    });
    expect(paymentsHref(range)).toBe("/operator/payments?from=2026-01-01&to=2026-01-31");
    expect(paymentsCsvHref(range)).toBe(
      "/api/operator/payments.csv?from=2026-01-01T00%3A00%3A00.000Z&to=2026-02-01T00%3A00%3A00.000Z",
    );
  });
});

describe("the audit view's wallet filter", () => {
  it("keeps an address and drops anything else", () => {
    expect(parseAuditSearch(`?wallet=${WALLET}`)).toEqual({ wallet: WALLET });
    expect(parseAuditSearch("?wallet=0x12")).toEqual({ wallet: undefined });
    expect(auditHref(WALLET)).toBe(`/operator/audit?wallet=${WALLET}`);
    expect(auditHref(undefined)).toBe("/operator/audit");
  });
});
