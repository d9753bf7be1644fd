import type { Driver } from "./database.js";

/** Runs one parameterised SQL statement and returns its rows. */
export type RawQuery = (text: string, params: ReadonlyArray<string | string[] | null>) => Promise<unknown[]>;

/**
 * A raw query function over the driver underneath drizzle, for the few statements drizzle does
 * not express well (the usage upsert with unnest arrays, the usage rollup read). Both drivers
 * return timestamptz as `Date` and float8 as `number`.
 * @example const rows = await createRawQuery(database.driver)("select $1::int as n", ["1"]);
 */
export function createRawQuery(driver: Driver, options: RawQueryOptions = {}): RawQuery {
  if (driver.kind === "pglite") {
    const pg = driver.client;
    return async (text, params) => (await pg.query(text, [...params])).rows;
  }
  const sql = driver.client;
  const prepare = options.prepare ?? false;
  return async (text, params) => [...(await sql.unsafe(text, [...params], { prepare }))];
}

/** Options of {@link createRawQuery}. */
export interface RawQueryOptions {
  /**
   * On PostgreSQL, run each statement as a named prepared statement (postgres.js caches one per
   * connection and text), so a hot statement is parsed and planned once, not on every call. Only for
   * a fixed set of statement texts: each distinct text stays prepared on each connection.
   */
  prepare?: boolean;
}
