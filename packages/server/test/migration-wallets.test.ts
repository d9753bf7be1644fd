import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "./support/databases.js";
import { upgradeAcross } from "./support/migrations.js";

// Slow tier: the migration that creates the `wallets` table (docs/operator.md#wallets) fills it with
// every wallet the deployment already knew: from live sessions, the audit trail's sign-ins, keys and
// wallet-wide limits; each once, first seen at its earliest trace, last active at its latest.

const SEED = `
insert into sessions (token_hash, id, wallet, created_at, expires_at, last_seen_at) values
  ('t1', 'ses_1', '0xA', '2026-01-05T00:00:00Z', '2027-01-01T00:00:00Z', '2026-01-06T00:00:00Z');
insert into key_events (wallet, key_id, action, at) values
  ('0xA', null, 'session.created', '2026-01-02T00:00:00Z'),
  ('0xB', null, 'session.created', '2026-02-01T00:00:00Z'),
  ('0xB', 'key_b1', 'key.created', '2026-02-03T00:00:00Z');
insert into api_keys (id, wallet, name, hash, start, created_at, last_used_at) values
  ('key_a1', '0xA', 'k', 'h1', 's', '2026-01-03T00:00:00Z', '2026-01-09T00:00:00Z'),
  ('key_c1', '0xC', 'k', 'h2', 's', '2026-03-01T00:00:00Z', null);
insert into wallet_limits (wallet, rate_limit_limit, rate_limit_window_seconds, updated_at) values
  ('0xD', 10, 60, '2026-04-01T00:00:00Z');`;

const QUERY = `select address, created_at::text as created, last_sign_in_at::text as signed_in,
  last_active_at::text as active, suspended_at from wallets order by address`;

const EXPECTED = [
  {
    address: "0xA",
    created: "2026-01-02 00:00:00+00",
    signed_in: "2026-01-05 00:00:00+00",
    active: "2026-01-09 00:00:00+00",
    suspended_at: null,
  },
  {
    address: "0xB",
    created: "2026-02-01 00:00:00+00",
    signed_in: "2026-02-01 00:00:00+00",
    active: "2026-02-03 00:00:00+00",
    suspended_at: null,
  },
  {
    address: "0xC",
    created: "2026-03-01 00:00:00+00",
    signed_in: null,
    active: "2026-03-01 00:00:00+00",
    suspended_at: null,
  },
  {
    address: "0xD",
    created: "2026-04-01 00:00:00+00",
    signed_in: null,
    active: "2026-04-01 00:00:00+00",
    suspended_at: null,
  },
];

describe("the wallets table on a database that already knows wallets", () => {
  it("on PGlite, holds each known wallet once with its first, sign-in and last activity times", async () => {
    expect(await upgradeAcross("pglite", "0018", SEED, QUERY)).toEqual(EXPECTED);
  });

  it.runIf(TEST_DATABASE_URL)("on PostgreSQL, the same", async () => {
    expect(await upgradeAcross("postgres", "0018", SEED, QUERY, TEST_DATABASE_URL)).toEqual(EXPECTED);
  });
});
