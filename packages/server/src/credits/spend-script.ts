import { defineScript, integerReply } from "@keyport/node-edge";
import { utcDayStart, utcMonthStart } from "../keys/refill-period.js";
import { BALANCE_FIELD as B, JOURNAL_FIELD as J, luaName as q } from "./fields.js";
import { COMMON } from "./scripts.js";

/**
 * Statuses of the spend script: per operation ok (spent, or a read that found enough) or short;
 * for the whole call busy (fenced), cold (not in Redis, no state given) or stale (the state given
 * predates a trim).
 */
export const SPEND_STATUS = { ok: 1, short: 2, busy: 3, cold: 4, stale: 5 } as const;

/** One spend or read of a balance, as the store queues it for the script. */
export interface SpendOperation {
  mode: "spend" | "read";
  cost: number;
  /** When it happens: the refill period it belongs to comes from it. */
  atMs: number;
  /** The key spending ("" for none): only a keyed spend journals a credit event. */
  keyId: string;
}

/**
 * One operation's reply: [status, allowance, interval code (0 none, 1 daily, 2 monthly), refilledAt
 * (epoch ms after any refill due, -1: never), purchased].
 */
export type SpendReply = readonly number[];

/**
 * Spends or reads one balance, operation after operation, in one atomic call: each exactly as alone
 * (a refill due first, the allowance then the purchased credits, a credit event when a keyed spend
 * crosses the low threshold or is the first refused since the balance last rose). KEYS: balance,
 * journal, fence, trimmed. ARGV: creditsId, idleTtlMs, the operation count N, then per operation
 * mode ("spend" | "read"), cost, dayStartMs, monthStartMs, keyId; then optionally the cold-load state
 * read from PostgreSQL: remaining, version, interval, amount, refilledAt, purchased, top, x, appliedId.
 * Journal: a spend that applied a refill or carries an event gets an entry of its own; the other
 * spends that changed the balance fold into one entry per run between those (n and p summed), so a
 * replay ends on the same pools, flag and events as with one entry per spend. Answers {busy},
 * {cold} or {stale} for the whole call, else {0} followed by each operation's five numbers.
 */
export const SPEND_SCRIPT = defineScript(`${COMMON}
local count = tonumber(ARGV[3])
if redis.call("EXISTS", KEYS[3]) == 1 then return {3} end
local st = fromHash(KEYS[1])
if not st then
  local s = 4 + 5 * count
  if #ARGV < s + 8 then return {4} end
  st = fromArgs(s)
  local applied = ARGV[s + 8]
  local trimmed = redis.call("GET", KEYS[4])
  if trimmed and idBefore(applied, trimmed) then return {5} end
  replay(st, KEYS[2], ARGV[1], applied)
  install(KEYS[1], st, ARGV[2])
end
local replies = {0}
local function answer(status, remaining, code, refilledAt)
  for _, v in ipairs({status, remaining, code, refilledAt, st.purchased}) do replies[#replies + 1] = v end
end
local foldN, foldP, folded = 0, 0, false
local function flush()
  if not folded then return end
  local entry = { ${q(J.creditsId)}, ARGV[1], ${q(J.fromAllowance)}, int(foldN), ${q(J.version)}, st.version }
  if foldP > 0 then
    entry[#entry + 1] = ${q(J.fromPurchased)}
    entry[#entry + 1] = int(foldP)
  end
  redis.call("XADD", KEYS[2], "*", unpack(entry))
  foldN, foldP, folded = 0, 0, false
end
local changed = false
for i = 0, count - 1 do
  local o = 4 + 5 * i
  local code = 0
  local period = nil
  if st.interval == "daily" then code = 1; period = tonumber(ARGV[o + 2]) end
  if st.interval == "monthly" then code = 2; period = tonumber(ARGV[o + 3]) end
  local due = period ~= nil and st.refilledAt >= 0 and st.refilledAt < period
  local cost = tonumber(ARGV[o + 1])
  if ARGV[o] == "read" then
    local remaining, refilledAt = st.remaining, st.refilledAt
    if due then remaining, refilledAt = st.amount, period end
    if remaining + st.purchased >= cost then answer(1, remaining, code, refilledAt) else answer(2, remaining, code, refilledAt) end
  else
    if due then
      st.remaining = st.amount
      st.refilledAt = period
      st.x = false
    end
    local before = st.remaining + st.purchased
    local ok = before >= cost
    local fromAllowance, fromPurchased = 0, 0
    if ok then
      fromAllowance = math.min(cost, st.remaining)
      fromPurchased = cost - fromAllowance
      st.remaining = st.remaining - fromAllowance
      st.purchased = st.purchased - fromPurchased
    end
    local mark = st.top
    if st.interval ~= "" and st.amount > mark then mark = st.amount end
    -- Without a key (a caller that names none) there is no event to send, and the flag stays.
    local event = nil
    local keyed = ARGV[o + 4] ~= ""
    if keyed and ok and (before - cost) * 10 < mark and before * 10 >= mark then event = "low" end
    if keyed and not ok and not st.x then
      event = "exhausted"
      st.x = true
    end
    if due or event then
      flush()
      local entry = { ${q(J.creditsId)}, ARGV[1], ${q(J.fromAllowance)}, int(fromAllowance), ${q(J.version)}, st.version }
      if fromPurchased > 0 then
        entry[#entry + 1] = ${q(J.fromPurchased)}
        entry[#entry + 1] = int(fromPurchased)
      end
      if due then
        entry[#entry + 1] = ${q(J.refill)}
        entry[#entry + 1] = int(period)
      end
      if event then
        local marker = { ${q(J.event)}, event, ${q(J.keyId)}, ARGV[o + 4], ${q(J.mark)}, int(mark), ${q(J.allowance)}, int(st.remaining), ${q(J.purchased)}, int(st.purchased), ${q(J.refilledAt)}, int(st.refilledAt) }
        for _, v in ipairs(marker) do entry[#entry + 1] = v end
      end
      redis.call("XADD", KEYS[2], "*", unpack(entry))
      changed = true
    elseif ok then
      foldN, foldP, folded = foldN + fromAllowance, foldP + fromPurchased, true
      changed = true
    end
    if ok then answer(1, st.remaining, code, st.refilledAt) else answer(2, st.remaining, code, st.refilledAt) end
  end
end
flush()
if changed then
  redis.call("HSET", KEYS[1], ${q(B.remaining)}, int(st.remaining), ${q(B.purchased)}, int(st.purchased), ${q(B.refilledAt)}, int(st.refilledAt), ${q(B.exhausted)}, st.x and "1" or "0")
end
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return replies
`);

/** The script's ARGV for `operations` of `creditsId`, with the cold-load state (`loaded`) when given. */
export function spendArgs(
  creditsId: string,
  idleTtlMs: string,
  operations: readonly SpendOperation[],
  loaded: readonly string[] = [],
): string[] {
  const args = [creditsId, idleTtlMs, String(operations.length)];
  for (const op of operations) {
    args.push(
      op.mode,
      String(op.cost),
      String(utcDayStart(op.atMs).getTime()),
      String(utcMonthStart(op.atMs).getTime()),
      op.keyId,
    );
  }
  args.push(...loaded);
  return args;
}

/** Reads the script's reply for `count` operations: a whole-call status (busy, cold, stale), or each operation's reply. */
export function parseSpendReply(reply: unknown, count: number): number | SpendReply[] {
  if (Array.isArray(reply) && reply.length === 1) return integerReply(reply, 1)[0] ?? 0;
  const flat = integerReply(reply, 1 + 5 * count);
  if (flat[0] !== 0) throw new Error("Unexpected reply from a Redis script");
  return Array.from({ length: count }, (_, i) => flat.slice(1 + 5 * i, 6 + 5 * i));
}
