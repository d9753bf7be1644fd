/**
 * Events page by their id, which a sequence assigns: `id < cursor` is exact and stable, since a
 * newer event only ever gets a larger id. Opaque to clients: base64url of `e:<id>`.
 */
export function encodeEventCursor(id: number): string {
  return Buffer.from(`e:${id}`).toString("base64url");
}

const DECODED = /^e:([1-9][0-9]{0,15})$/;

/** The event id a cursor from `encodeEventCursor` points below; null for anything else. */
export function decodeEventCursor(value: string): number | null {
  const match = DECODED.exec(Buffer.from(value, "base64url").toString("utf8"));
  if (!match?.[1]) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}
