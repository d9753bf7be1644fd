import { KEY_ID_PATTERN } from "@keyport/server/schemas";
import { USAGE_RANGES, type UsageRangeId } from "./usage-range";

/** What the usage view shows, as its URL keeps it: `?range=30d&key=<key id>`. */
export interface UsageUrlState {
  rangeId: UsageRangeId;
  keyId: string | undefined;
}

const DEFAULT_RANGE: UsageRangeId = "7d";

/** Reads the view's state from a `location.search`; unknown or malformed values fall back to the defaults. */
export function parseUsageSearch(search: string): UsageUrlState {
  const params = new URLSearchParams(search);
  const range = params.get("range");
  const key = params.get("key");
  return {
    rangeId: USAGE_RANGES.find((candidate) => candidate.id === range)?.id ?? DEFAULT_RANGE,
    keyId: key !== null && KEY_ID_PATTERN.test(key) ? key : undefined,
  };
}

/** The view's URL for a state: `/usage?range=30d&key=...` (the default range written too, so a link says it). */
export function usageHref(state: UsageUrlState): string {
  const params = new URLSearchParams({ range: state.rangeId });
  if (state.keyId !== undefined) params.set("key", state.keyId);
  return `/usage?${params.toString()}`;
}
