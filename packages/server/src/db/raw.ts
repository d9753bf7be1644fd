import type { Driver } from "./database.js";

/** Runs one parameterised SQL statement and returns its rows. */
export type RawQuery = (text: string, params: ReadonlyArray<string | string[] | null>) => Promise<unknown[]>;

/**
 * A raw query function over the driver underneath drizzle, for the few statements drizzle does
 * not express well (the usage upsert with unnest arrays, the usage rollup read). Both drivers
 * return timestamptz as `Date` and float8 as `number`.
 * @example const rows = await createRawQuery(database.driver)("select $1::int as n", ["1"]);
 */
export function createRawQuery(driver: Driver): RawQuery {
  if (driver.kind === "pglite") {
    const pg = driver.client;
    return async (text, params) => (await pg.query(text, [...params])).rows;
  }
  const sql = driver.client;
  return async (text, params) => [...(await sql.unsafe(text, [...params]))];
}
