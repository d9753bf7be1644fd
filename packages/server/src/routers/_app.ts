import { router } from "../trpc.js";
import { authRouter } from "./auth.js";
import { keysRouter } from "./keys.js";
import { usageRouter } from "./usage.js";

/** Every procedure the server serves, over tRPC at /trpc and (those with `meta.openapi`) as REST. */
export const appRouter = router({
  auth: authRouter,
  keys: keysRouter,
  usage: usageRouter,
});

export type AppRouter = typeof appRouter;
