import postgres from "postgres";
import type { BenchDatabase } from "./databases.js";

/**
 * Gives balance `creditsId` (a key's id, for the balance made with it) `amount` purchased credits,
 * straight in PostgreSQL, before any verification loads it (docs/verifying-keys.md#two-pools): the
 * servers of the run read it from there, with or without Redis. PostgreSQL only, as the credits rows are.
 */
export async function seedPurchased(
  database: Extract<BenchDatabase, { kind: "postgres" }>,
  creditsId: string,
  amount: number,
): Promise<void> {
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql.unsafe(
      "update key_credits set purchased = $2::bigint, version = version + 1 where id = $1 returning id",
      [creditsId, String(amount)],
    );
    if (rows.length !== 1) throw new Error("no credits row to seed purchased credits on");
  } finally {
    await sql.end();
  }
}
