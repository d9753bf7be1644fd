import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { createPaymentStore } from "../src/payments/payment-store.js";
import { describeDatabases } from "./support/databases.js";

// docs/payments.md#exactly-once: a payment's lock is renewed and released only by the worker holding it.

const newPayment = (lockedUntil: Date) => ({
  network: "eip155:31337",
  asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  payer: `0x${randomBytes(20).toString("hex")}`,
  nonce: `0x${randomBytes(32).toString("hex")}`,
  signatureHash: randomBytes(32).toString("hex"),
  keyId: "key_lock",
  creditsId: "cr_lock",
  wallet: "0x0000000000000000000000000000000000000001",
  amount: "5",
  baseUnits: "5000000",
  credits: 5000,
  validBefore: new Date(Date.now() + 60_000),
  lockedUntil,
});

describeDatabases("a payment's lock", (target) => {
  it("is extended and released only by its holder, never by a worker whose lock lapsed and was taken over", async () => {
    const store = createPaymentStore(target.database.db);
    const now = Date.now();
    // Worker A recorded the payment; its lock lapsed a second ago (A stalled).
    const recorded = await store.insert(newPayment(new Date(now - 1_000)));
    if (recorded === undefined) throw new Error("not recorded");
    // Worker B takes it over.
    const taken = await store.lock(recorded.id, new Date(now + 15_000), new Date(now));
    if (taken === undefined) throw new Error("not taken");
    // A wakes up: it can neither renew nor release B's lock.
    expect(await store.extendLock(recorded.id, recorded.lockedUntil, new Date(now + 30_000))).toBe(false);
    await store.unlock(recorded.id, recorded.lockedUntil);
    expect((await store.get(recorded.id))?.lockedUntil.getTime()).toBe(now + 15_000);
    // B can, with the time it set.
    expect(await store.extendLock(recorded.id, taken.lockedUntil, new Date(now + 20_000))).toBe(true);
    expect((await store.get(recorded.id))?.lockedUntil.getTime()).toBe(now + 20_000);
    await store.unlock(recorded.id, new Date(now + 20_000));
    expect((await store.get(recorded.id))?.lockedUntil.getTime()).toBeLessThan(Date.now());
  });
});
