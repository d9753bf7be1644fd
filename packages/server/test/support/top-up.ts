import type { WrittenBalance } from "../../src/credits/balance-writer.js";
import type { TestServer } from "./server.js";

/**
 * Adds `amount` purchased credits to balance `creditsId` through the app's own balance writer (the
 * path a paid top-up takes: the row alone, or with Redis's copy fenced and reinstalled), in a
 * transaction of its own. Answers the row as committed.
 * @example await topUp(server, key.apiKey.id, 100);
 */
export async function topUp(server: TestServer, creditsId: string, amount: number) {
  const { database, verification } = server.app.services;
  let written: WrittenBalance | undefined;
  try {
    await database.db.transaction(async (tx) => {
      written = await verification.balances.write(tx, creditsId, { kind: "add", amount }, new Date());
      await written.beforeCommit();
    });
  } catch (error) {
    await written?.settle(false);
    throw error;
  }
  await written?.settle(true);
  return written?.row;
}
