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
  })
  .meta({ id: "Error" });

// The compiler checks that the documented schema accepts every envelope @keyport/errors builds.
type DocumentedBy<Schema extends z.ZodType, T extends z.input<Schema>> = T;

/** The error envelope (@keyport/errors' type), which `errorEnvelope` documents. */
export type ErrorEnvelope = DocumentedBy<typeof errorEnvelope, Envelope>;
