import { TRPCError } from "@trpc/server";
import { decodeEventCursor } from "../events/cursor.js";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
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
        description:
          "Every key creation, update, roll and revocation, and every sign-in and sign-out of the wallet, newest first, paginated like the key list (`limit` 1-100, default 50; pass `nextCursor` back as `cursor`, with the same filters). `keyId` keeps one key's events, `action` one action's (both may be given). Each event is recorded in the same transaction as its change, so a change never lacks its event and a refused or failed change leaves none. `changes` holds the changed fields' new public values: never a secret, hash, session token, SIWE message or signature. Revoking a key that is already revoked records nothing. Another wallet's events are 403.",
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
