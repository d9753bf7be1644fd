import { z } from "zod";

/** What a client may know about this server's setup before signing in (docs/api.md#meta). */
export const serverMeta = z
  .object({
    payments: z
      .object({
        network: z.string().meta({ description: "CAIP-2 chain id of top-ups", example: "eip155:8453" }),
        asset: z.string().meta({ description: "The EIP-3009 token's address, EIP-55 checksummed" }),
        decimals: z.number().int().meta({ description: "The token's decimals", example: 6 }),
        creditsPerToken: z
          .number()
          .int()
          .meta({ description: "Credits one whole token buys", example: 1000 }),
        min: z.string().meta({ description: "The smallest top-up in whole tokens", example: "1" }),
        max: z.string().meta({ description: "The largest top-up in whole tokens", example: "1000" }),
      })
      .nullable()
      .meta({ description: "null while payments are off (top-ups then answer 501)" }),
    chainIds: z
      .array(z.number().int().positive())
      .meta({ description: "The chains whose sign-in the server accepts (SIWE_CHAIN_IDS)", example: [1] }),
  })
  .meta({ id: "ServerMeta" });

/** The `GET /meta` answer. */
export type ServerMeta = z.infer<typeof serverMeta>;
