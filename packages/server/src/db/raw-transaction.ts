import type { Driver } from "./database.js";
import type { RawQuery } from "./raw.js";

/** Runs `work` in one transaction, its statements through the `RawQuery` it is given. */
export type RawTransaction = <T>(work: (query: RawQuery) => Promise<T>) => Promise<T>;

/**
 * Raw-SQL transactions over either driver, for the credits journal drainer.
 * @example await createRawTransaction(database.driver)(async (query) => query("select 1", []));
 */
export function createRawTransaction(driver: Driver): RawTransaction {
  if (driver.kind === "pglite") {
    const pg = driver.client;
    return (work) =>
      pg.transaction((tx) => work(async (text, params) => (await tx.query(text, [...params])).rows));
  }
  const sql = driver.client;
  return async <T>(work: (query: RawQuery) => Promise<T>) => {
    let result: T | undefined;
    await sql.begin(async (tx) => {
      result = await work(async (text, params) => [...(await tx.unsafe(text, [...params]))]);
    });
    return result as T;
  };
}
