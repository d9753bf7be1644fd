import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "./support/databases.js";
import { upgradeAcross } from "./support/migrations.js";

// Slow tier: upgrading a database made before the named limits (migrations 0022-0023) turns each key's
// and each wallet's single limit into its limit named `default`, applied to every verification
// (docs/verifying-keys.md#named-limits), and leaves every other column as it was. The seed copies the
// rows as they were into tables of its own, which the query compares with the upgraded ones.

const SEED = `
insert into api_keys (id, wallet, name, hash, start, created_at, expires_at, revoked_at, last_used_at,
    rate_limit_limit, rate_limit_window_seconds, permissions, meta, allowed_ips, issued_by_operator) values
  ('key_a1', '0xA', 'limited', 'h1', 's1', '2026-01-03T00:00:00Z', null, null, '2026-01-09T00:00:00Z',
    100, 60, '{prices:read,keys.*}', '{"plan": "pro"}', '{10.0.0.0/8}', false),
  ('key_a2', '0xA', 'unlimited', 'h2', 's2', '2026-01-04T00:00:00Z', '2030-01-01T00:00:00Z', null, null,
    null, null, '{}', null, null, true),
  ('key_b1', '0xB', 'revoked, daily', 'h3', 's3', '2026-02-01T00:00:00Z', null, '2026-02-02T00:00:00Z', null,
    5, 86400, '{}', null, null, false);
insert into wallet_limits (wallet, rate_limit_limit, rate_limit_window_seconds, updated_at) values
  ('0xA', 1000, 3600, '2026-04-01T00:00:00Z');
create table keys_before as select * from api_keys;
create table wallet_limits_before as select * from wallet_limits;`;

// Each upgraded row beside the row as it was, both as JSON without their limit columns.
const QUERY = `
select k.id as id, k.rate_limits as limits,
  (to_jsonb(k) - 'rate_limits') = (to_jsonb(b) - 'rate_limit_limit' - 'rate_limit_window_seconds') as rest_unchanged
from api_keys k join keys_before b on b.id = k.id
union all
select w.wallet, w.rate_limits,
  (to_jsonb(w) - 'rate_limits') = (to_jsonb(b) - 'rate_limit_limit' - 'rate_limit_window_seconds')
from wallet_limits w join wallet_limits_before b on b.wallet = w.wallet
union all
select 'keys: ' || (select count(*) from api_keys)::text || ', wallets: ' || (select count(*) from wallet_limits)::text, null, true
order by id`;

const EXPECTED = [
  {
    id: "0xA",
    limits: [{ name: "default", limit: 1000, windowSeconds: 3600, autoApply: true }],
    rest_unchanged: true,
  },
  {
    id: "key_a1",
    limits: [{ name: "default", limit: 100, windowSeconds: 60, autoApply: true }],
    rest_unchanged: true,
  },
  { id: "key_a2", limits: [], rest_unchanged: true },
  {
    id: "key_b1",
    limits: [{ name: "default", limit: 5, windowSeconds: 86400, autoApply: true }],
    rest_unchanged: true,
  },
  { id: "keys: 3, wallets: 1", limits: null, rest_unchanged: true },
];

describe("migrations 0022-0023 on a database whose keys and wallets hold single limits", () => {
  it("on PGlite, makes each single limit the one named default, applied to every verification, and changes nothing else", async () => {
    expect(await upgradeAcross("pglite", "0022", SEED, QUERY)).toEqual(EXPECTED);
  });

  it.runIf(TEST_DATABASE_URL)(
    "on PostgreSQL, makes each single limit the one named default, applied to every verification, and changes nothing else",
    async () => {
      expect(await upgradeAcross("postgres", "0022", SEED, QUERY, TEST_DATABASE_URL)).toEqual(EXPECTED);
    },
  );
});
