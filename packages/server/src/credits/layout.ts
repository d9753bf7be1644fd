/** How many journal streams the Redis credits use; a balance's keys all live under its shard's hash tag. */
export const JOURNAL_SHARDS = 16;

/** The shard of a balance: FNV-1a of its id, mod {@link JOURNAL_SHARDS}; the same in every process. */
export function shardOf(creditsId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < creditsId.length; i++) {
    hash ^= creditsId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % JOURNAL_SHARDS;
}

/**
 * The Redis keys of the credits (docs/decisions.md, Credits in Redis). Every key of one balance and
 * its shard's journal share the hash tag `{s<N>}`, so each script touches one slot: one Redis or a
 * Redis Cluster both work.
 */
export interface CreditsLayout {
  balance(creditsId: string): string;
  fence(creditsId: string): string;
  journal(shard: number): string;
  trimmed(shard: number): string;
}

/**
 * The layout under `prefix` (REDIS_KEY_PREFIX). A prefix holding `{` or `}` would move the hash tag,
 * so it is refused.
 * @example createCreditsLayout("keyport:rl:").balance("key_1") // "keyport:rl:credits:{s5}:b:key_1"
 */
export function createCreditsLayout(prefix: string): CreditsLayout {
  if (prefix.includes("{") || prefix.includes("}")) {
    throw new Error("REDIS_KEY_PREFIX must not contain { or }: they would change the Redis Cluster slot");
  }
  const base = (shard: number) => `${prefix}credits:{s${shard}}:`;
  return {
    balance: (id) => `${base(shardOf(id))}b:${id}`,
    fence: (id) => `${base(shardOf(id))}fence:${id}`,
    journal: (shard) => `${base(shard)}journal`,
    trimmed: (shard) => `${base(shard)}trimmed`,
  };
}

/** Whether stream id `a` comes before `b` ("ms-seq", compared as numbers). */
export function streamIdBefore(a: string, b: string): boolean {
  const [am = 0n, as = 0n] = a.split("-").map(BigInt);
  const [bm = 0n, bs = 0n] = b.split("-").map(BigInt);
  return am < bm || (am === bm && as < bs);
}
