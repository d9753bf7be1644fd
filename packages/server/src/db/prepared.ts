import type { Db } from "./database.js";

/**
 * Memoises a drizzle prepared statement per database, so hot queries skip drizzle's SQL building on
 * every call and the driver can reuse the server-side statement. Placeholder values bypass column
 * encoders, and drizzle's postgres.js setup sends timestamps as text: pass ISO strings, not Dates.
 * @example const lookup = preparePerDatabase((db) => db.select().from(t).where(eq(t.id, sql.placeholder("id"))).prepare("by_id"));
 *   await lookup(db).execute({ id });
 */
export function preparePerDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
