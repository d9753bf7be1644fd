import { createCallerFactory, router } from "../trpc.js";
import { authRouter } from "./auth.js";
import { eventsRouter } from "./events.js";
import { keysRouter } from "./keys.js";
import { limitsRouter } from "./limits.js";
import { metaProcedure } from "./meta.js";
import { operatorRouter } from "./operator/_router.js";
import { plansRouter, walletsRouter } from "./plans.js";
import { usageRouter } from "./usage.js";
import { webhooksRouter } from "./webhooks.js";

/** Every procedure the server serves, over tRPC at /trpc and (those in routers/rest.ts) as REST. */
export const appRouter = router({
  auth: authRouter,
  keys: keysRouter,
  events: eventsRouter,
  limits: limitsRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
  operator: operatorRouter,
  meta: metaProcedure,
  plans: plansRouter,
  wallets: walletsRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process with a prepared context (the REST mapping, tests). */
export const createAppCaller = createCallerFactory(appRouter);

/** The typed server-side caller of every procedure. */
export type AppCaller = ReturnType<typeof createAppCaller>;
