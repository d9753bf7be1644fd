import type { ApiKey } from "./key-status";
import type { KeySort, KeyStatusFilter } from "./list-state";

/** Whether the key's name or start (`kp_ab12`) contains `query`, ignoring case and surrounding spaces. */
export function matchesKeyQuery(key: Pick<ApiKey, "name" | "start">, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === "") return true;
  return key.name.toLocaleLowerCase().includes(needle) || key.start.toLocaleLowerCase().includes(needle);
}

const byName = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

function compareKeys(a: ApiKey, b: ApiKey, sort: KeySort): number {
  if (sort === "name") return byName.compare(a.name, b.name);
  if (sort === "last-used") {
    // Never-used keys go last, newest first among themselves.
    const left = a.lastUsedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
    const right = b.lastUsedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
    if (left !== right) return right > left ? 1 : -1;
  }
  return b.createdAt.getTime() - a.createdAt.getTime();
}

/** The keys that match the search and status filter, sorted; ties fall back to newest first, then id. */
export function selectKeys(
  keys: readonly ApiKey[],
  options: { q: string; status: KeyStatusFilter; sort: KeySort },
): ApiKey[] {
  return keys
    .filter((key) => options.status === "all" || key.status === options.status)
    .filter((key) => matchesKeyQuery(key, options.q))
    .sort((a, b) => compareKeys(a, b, options.sort) || a.id.localeCompare(b.id));
}

/** One page of `items` (1-based `page`, clamped to the last page) and how many pages there are. */
export function pageOf<T>(
  items: readonly T[],
  page: number,
  size: number,
): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, page), pages);
  return { items: items.slice((current - 1) * size, current * size), page: current, pages };
}

/** How close the wallet is to its active-key cap: a notice from 90 % of it (at least one key left before). */
export function activeKeyCapNotice(active: number, cap: number): "full" | "near" | null {
  if (active >= cap) return "full";
  if (active >= Math.max(1, Math.floor(cap * 0.9))) return "near";
  return null;
}
