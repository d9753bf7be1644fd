import { z } from "zod";

/** The one error body every REST route returns. */
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

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
