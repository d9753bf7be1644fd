import type { WalletSort } from "./operator-types";
import { WALLET_SORTS } from "./operator-words";

/** The wallets table's state as its URL keeps it: `/operator/wallets?q=0xab&sort=activeKeys`. */
export interface WalletsUrlState {
  /** The start of an address as typed (hex digits, `0x` optional); "" for every wallet. */
  q: string;
  sort: WalletSort;
}

const SEARCH = /^(0x)?[0-9a-fA-F]{0,40}$/;

/** Reads the wallets table's state from `location.search`; a malformed value falls back to the default. */
export function parseWalletsSearch(search: string): WalletsUrlState {
  const params = new URLSearchParams(search);
  const q = (params.get("q") ?? "").trim();
  const sort = params.get("sort");
  return {
    q: SEARCH.test(q) ? q : "",
    sort: WALLET_SORTS.find((candidate) => candidate.value === sort)?.value ?? "lastActive",
  };
}

/** Whether `q` is a search the server takes (the start of an address); the box says so otherwise. */
export function isWalletSearch(q: string): boolean {
  return SEARCH.test(q.trim());
}

/** The wallets table's URL for a state (the search as typed); defaults are left out. */
export function walletsHref(state: WalletsUrlState): string {
  const params = new URLSearchParams();
  if (state.q !== "") params.set("q", state.q);
  if (state.sort !== "lastActive") params.set("sort", state.sort);
  const query = params.toString();
  return query === "" ? "/operator/wallets" : `/operator/wallets?${query}`;
}

/** The payments view's range as whole UTC days, `YYYY-MM-DD`: `from` inclusive, `to` inclusive. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of `date` in UTC. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The default range: the 30 UTC days ending today. */
export function defaultDayRange(now: Date): DayRange {
  return { from: utcDay(new Date(now.getTime() - 29 * DAY_MS)), to: utcDay(now) };
}

function isDay(text: string | null): text is string {
  return text !== null && DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));
}

/** Reads `?from=&to=` (UTC days); either missing or malformed, or `from` after `to`, gives the default. */
export function parseDayRange(search: string, now: Date): DayRange {
  const params = new URLSearchParams(search);
  const from = params.get("from");
  const to = params.get("to");
  if (!isDay(from) || !isDay(to) || from > to) return defaultDayRange(now);
  return { from, to };
}

/** The instants the server reads for a range of days: `from` at 00:00 UTC, `to` the next day's 00:00. */
export function rangeInstants(range: DayRange): { from: Date; to: Date } {
  const from = new Date(`${range.from}T00:00:00.000Z`);
  const to = new Date(Date.parse(`${range.to}T00:00:00.000Z`) + DAY_MS);
  return { from, to };
}

/** The payments view's URL for a range. */
export function paymentsHref(range: DayRange): string {
  return `/operator/payments?${new URLSearchParams({ from: range.from, to: range.to })}`;
}

/** "Export CSV": the proxy's export of the range (`docs/operator.md#console`). */
export function paymentsCsvHref(range: DayRange): string {
  const { from, to } = rangeInstants(range);
  return `/api/operator/payments.csv?${new URLSearchParams({ from: from.toISOString(), to: to.toISOString() })}`;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The audit view's wallet filter, `?wallet=0x...`; anything that is not an address is no filter. */
export function parseAuditSearch(search: string): { wallet: string | undefined } {
  const wallet = new URLSearchParams(search).get("wallet")?.trim() ?? "";
  return { wallet: ADDRESS.test(wallet) ? wallet : undefined };
}

/** The audit view's URL, filtered to one wallet or not. */
export function auditHref(wallet: string | undefined): string {
  return wallet === undefined ? "/operator/audit" : `/operator/audit?${new URLSearchParams({ wallet })}`;
}
