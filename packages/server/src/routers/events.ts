import { TRPCError } from "@trpc/server";
import { decodeEventCursor } from "../events/cursor.js";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { eventsDescriptions } from "../schemas/descriptions/events.js";
import { listEventsInput, listEventsOutput } from "../schemas/key-event.js";
import { router, sessionProcedure } from "../trpc.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const eventsHttp = {
  list: {
    method: "GET",
    path: "/api-keys/{wallet}/events",
    successStatus: 200,
    errors: [401, 403],
    security: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

/** The audit trail of the session's wallet: key changes, sign-ins and sign-outs. */
export const eventsRouter = router({
  list: sessionProcedure
    .meta(
      openApiMeta(eventsHttp.list, {
        tags: ["events"],
        summary: "List a wallet's audit events",
        description: eventsDescriptions.list,
      }),
    )
    .input(listEventsInput)
    .output(listEventsOutput)
    .query(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet) {
        throw new TRPCError({
          code: "FORBIDDEN",
          message: "A session can only list its own wallet's events",
        });
      }
      const before = input.cursor === undefined ? null : decodeEventCursor(input.cursor);
      if (input.cursor !== undefined && before === null) {
        throw new TRPCError({ code: "BAD_REQUEST", message: "cursor is not one this server issued" });
      }
      return ctx.events.list({
        wallet: ctx.wallet,
        limit: input.limit,
        before,
        keyId: input.keyId ?? null,
        action: input.action ?? null,
      });
    }),
});
