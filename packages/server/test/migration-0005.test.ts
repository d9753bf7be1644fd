import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "./support/databases.js";
import { upgradeAcross } from "./support/migrations.js";

// Slow tier: upgrading a database made before migration 0005 must start `wallet_active_keys.at_most` at
// each wallet's active keys (the bound test/active-key-bound.test.ts checks). The PGlite case needs a
// PGlite made from nothing (its initdb: seconds of CPU), since the run's template is already migrated.

const SEED = `insert into api_keys (id, wallet, name, hash, start, expires_at, revoked_at) values
  ('key_a1', '0xA', 'active', 'h1', 's', null, null),
  ('key_a2', '0xA', 'active until tomorrow', 'h2', 's', now() + interval '1 day', null),
  ('key_a3', '0xA', 'in a grace period', 'h3', 's', null, now() + interval '1 hour'),
  ('key_a4', '0xA', 'expired', 'h4', 's', now() - interval '1 day', null),
  ('key_a5', '0xA', 'revoked', 'h5', 's', null, now() - interval '1 day'),
  ('key_b1', '0xB', 'revoked', 'h6', 's', null, now() - interval '1 hour')`;

const QUERY = "select wallet, at_most from wallet_active_keys order by wallet";
const EXPECTED = [{ wallet: "0xA", at_most: 3 }];

describe("migration 0005 on a database that already holds keys", () => {
  it("on PGlite, starts each wallet's bound at its active keys", async () => {
    expect(await upgradeAcross("pglite", "0005", SEED, QUERY)).toEqual(EXPECTED);
  });

  it.runIf(TEST_DATABASE_URL)("on PostgreSQL, starts each wallet's bound at its active keys", async () => {
    expect(await upgradeAcross("postgres", "0005", SEED, QUERY, TEST_DATABASE_URL)).toEqual(EXPECTED);
  });
});
