import type { ErrorEnvelope as Envelope } from "@keyport/errors";
import { z } from "zod";

/** The one error body every REST route returns, as OpenAPI documents it. */
export const errorEnvelope = z
  .object({
    code: z.string().meta({ description: "tRPC error code name", example: "BAD_REQUEST" }),
    message: z.string(),
    issues: z
      .array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
      .optional()
      .meta({ description: "Validation problems, one per invalid field" }),
    reason: z.string().optional().meta({
      description:
        "Which cause of `code` it was, when a program may act on it: `INSUFFICIENT_SCOPE` (an operator token lacks `details.scope`), `WALLET_SUSPENDED` (the deployment's operator suspended the wallet). Newer servers may add reasons",
      example: "WALLET_SUSPENDED",
    }),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "What the reason names, e.g. `{ scope }` for INSUFFICIENT_SCOPE" }),
    requestId: z.string().optional().meta({
      description:
        "On a 5xx only: the request's id, as its `X-Request-Id` header carries it; quote it when reporting the error",
      example: "3b0c1f7e-9a1d-4c55-8a53-5f0e2d7c9b11",
    }),
  })
  .meta({ id: "Error" });

// The compiler checks that the documented schema accepts every envelope @keyport/errors builds.
type DocumentedBy<Schema extends z.ZodType, T extends z.input<Schema>> = T;

/** The error envelope (@keyport/errors' type), which `errorEnvelope` documents. */
export type ErrorEnvelope = DocumentedBy<typeof errorEnvelope, Envelope>;
