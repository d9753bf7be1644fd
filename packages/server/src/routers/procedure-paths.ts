import type { AnyTRPCProcedure, AnyTRPCRootTypes, TRPCBuiltRouter } from "@trpc/server";
import type { AppRouter } from "./_app.js";

/** The procedures of a router record as dotted paths, `prefix` before each. */
type PathsOf<Procedures, Prefix extends string> = {
  [Key in keyof Procedures & string]: Procedures[Key] extends AnyTRPCProcedure
    ? `${Prefix}${Key}`
    : PathsOf<Procedures[Key], `${Prefix}${Key}.`>;
}[keyof Procedures & string];

/**
 * Every procedure of `AppRouter` by its path (`"keys.list"`), read from tRPC's public router type
 * (a built router is its record of procedures). A `Record<AppProcedurePath, ...>` must name every
 * procedure, so adding one to the server fails the build of each such table until it is listed.
 */
export type AppProcedurePath =
  AppRouter extends TRPCBuiltRouter<AnyTRPCRootTypes, infer Procedures> ? PathsOf<Procedures, ""> : never;
