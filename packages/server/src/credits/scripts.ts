import { defineScript } from "@keyport/node-edge";
import { BALANCE_FIELD as B, JOURNAL_FIELD as J, luaName as q } from "./fields.js";

// The Lua of the Redis credits (docs/decisions.md, Credits in Redis). The fields of a balance hash and
// of a journal entry are named once, in fields.ts, for the Lua and the TypeScript alike. A journal
// entry is one spend's, or the sums of consecutive spends of one script call (spend-script.ts). Lua
// numbers are doubles: balances stay below 2^53 (key_credits_total_check), where they are exact.

/** The Lua helpers every credits script shares: the balance hash, the cold-load state, the journal replay. */
export const COMMON = `
local function int(x) return string.format("%.0f", x) end
local function idBefore(a, b)
  local am, as = string.match(a, "^(%d+)-(%d+)$")
  local bm, bs = string.match(b, "^(%d+)-(%d+)$")
  am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
  return am < bm or (am == bm and as < bs)
end
local function fromHash(key)
  local h = redis.call("HMGET", key, ${q(B.remaining)}, ${q(B.version)}, ${q(B.interval)}, ${q(B.amount)}, ${q(B.refilledAt)}, ${q(B.purchased)}, ${q(B.lastTopUp)}, ${q(B.exhausted)})
  if not h[1] then return nil end
  return { remaining = tonumber(h[1]), version = h[2], interval = h[3], amount = tonumber(h[4]), refilledAt = tonumber(h[5]), purchased = tonumber(h[6]) or 0, top = tonumber(h[7]) or 0, x = h[8] == "1" }
end
local function fromArgs(i)
  return { remaining = tonumber(ARGV[i]), version = ARGV[i + 1], interval = ARGV[i + 2], amount = tonumber(ARGV[i + 3]), refilledAt = tonumber(ARGV[i + 4]), purchased = tonumber(ARGV[i + 5]), top = tonumber(ARGV[i + 6]) or 0, x = ARGV[i + 7] == "1" }
end
local function replay(st, journal, creditsId, applied)
  local from = "-"
  if applied ~= "0-0" then from = "(" .. applied end
  for _, e in ipairs(redis.call("XRANGE", journal, from, "+")) do
    local f = {}
    for i = 1, #e[2], 2 do f[e[2][i]] = e[2][i + 1] end
    if f[${q(J.creditsId)}] == creditsId and f[${q(J.version)}] == st.version then
      local r = tonumber(f[${q(J.refill)}])
      if r and st.interval ~= "" and st.refilledAt >= 0 and st.refilledAt < r then
        st.remaining = st.amount
        st.refilledAt = r
        st.x = false
      end
      if f[${q(J.event)}] == "exhausted" then st.x = true end
      st.remaining = st.remaining - tonumber(f[${q(J.fromAllowance)}])
      if st.remaining < 0 then st.remaining = 0 end
      st.purchased = st.purchased - (tonumber(f[${q(J.fromPurchased)}]) or 0)
      if st.purchased < 0 then st.purchased = 0 end
    end
  end
end
local function install(key, st, ttl)
  redis.call("HSET", key, ${q(B.remaining)}, int(st.remaining), ${q(B.purchased)}, int(st.purchased), ${q(B.version)}, st.version,
    ${q(B.interval)}, st.interval, ${q(B.amount)}, int(st.amount), ${q(B.refilledAt)}, int(st.refilledAt), ${q(B.lastTopUp)}, int(st.top), ${q(B.exhausted)}, st.x and "1" or "0")
  redis.call("PEXPIRE", key, ttl)
end
`;

/**
 * Fences a balance for an administrative change. KEYS: balance, journal, fence. ARGV: creditsId,
 * the version being written, fenceTtlMs, then PostgreSQL's state under its row lock: remaining,
 * version, interval, amount, refilledAt, purchased, top, x, appliedId. Sets the fence, takes the live state
 * (the hash, else PostgreSQL's minus the undrained spends of its version), deletes the hash, and
 * answers [remaining, refilledAt, purchased] of that live state.
 */
export const FENCE_SCRIPT = defineScript(`${COMMON}
redis.call("SET", KEYS[3], ARGV[2], "PX", ARGV[3])
local st = fromHash(KEYS[1])
if not st then
  st = fromArgs(4)
  replay(st, KEYS[2], ARGV[1], ARGV[12])
end
redis.call("DEL", KEYS[1])
return {int(st.remaining), int(st.refilledAt), int(st.purchased)}
`);

/** KEYS: fence. ARGV: version, fenceTtlMs. Extends the fence if it still holds `version`: 1, else 0. */
export const HOLD_FENCE_SCRIPT = defineScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
  return 1
end
return 0
`);

/**
 * After the change committed. KEYS: balance, fence. ARGV: version, remaining, interval, amount,
 * refilledAt, idleTtlMs, purchased, top, x. Installs the new hash and lifts the fence, only if the fence
 * still holds `version` (else a spend loads the committed row itself).
 */
export const INSTALL_SCRIPT = defineScript(`${COMMON}
if redis.call("GET", KEYS[2]) ~= ARGV[1] then return 0 end
install(KEYS[1], { remaining = tonumber(ARGV[2]), version = ARGV[1], interval = ARGV[3], amount = tonumber(ARGV[4]), refilledAt = tonumber(ARGV[5]), purchased = tonumber(ARGV[7]), top = tonumber(ARGV[8]) or 0, x = ARGV[9] == "1" }, ARGV[6])
redis.call("DEL", KEYS[2])
return 1
`);

/** KEYS: fence. ARGV: version. Lifts a fence of a change that rolled back. */
export const RELEASE_FENCE_SCRIPT = defineScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) end
return 0
`);

/**
 * After a drain committed. KEYS: journal, trimmed. ARGV: the last applied id. Raises `trimmed` to
 * it and drops every entry up to it.
 */
export const TRIM_SCRIPT = defineScript(`${COMMON}
local upto = ARGV[1]
local trimmed = redis.call("GET", KEYS[2])
if trimmed and idBefore(upto, trimmed) then upto = trimmed end
redis.call("SET", KEYS[2], upto)
local ms, seq = string.match(upto, "^(%d+)-(%d+)$")
redis.call("XTRIM", KEYS[1], "MINID", ms .. "-" .. int(tonumber(seq) + 1))
return 1
`);
