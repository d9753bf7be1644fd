import { z } from "zod";
import { nextCursor, pageLimit, timestamp, wallet, walletInput } from "./common.js";

/** The longest search: `0x` and the 40 hex digits of a whole address. */
const MAX_WALLET_SEARCH_LENGTH = 42;

/** How the operator's wallet list is ordered (docs/operator.md#wallets). */
export const WALLET_SORTS = ["lastActive", "activeKeys"] as const;
export type WalletSort = (typeof WALLET_SORTS)[number];

export const listWalletsInput = z
  .object({
    q: z
      .string()
      .trim()
      .max(MAX_WALLET_SEARCH_LENGTH)
      .regex(/^(0x)?[0-9a-fA-F]*$/i, "must be the start of an address: hex digits, with or without 0x")
      .optional()
      .meta({
        description:
          "The start of an address, any case, with or without `0x` (at most 42 characters); empty: every wallet",
      }),
    sort: z.enum(WALLET_SORTS).default("lastActive").meta({
      description:
        "`lastActive`: last sign-in, key creation or verification first; `activeKeys`: most active keys first. Ties by address.",
    }),
    limit: pageLimit,
    cursor: z.string().max(200).optional().meta({
      description: "Opaque cursor from a previous page's nextCursor, of the same sort (else 400)",
    }),
  })
  .optional();

/** A wallet as the operator sees it. */
export const operatorWallet = z
  .object({
    address: wallet,
    createdAt: timestamp.meta({ description: "When the deployment first saw it (sign-in or key)" }),
    lastSignInAt: timestamp.nullable(),
    lastActiveAt: timestamp.meta({
      description: "Its last sign-in, key creation or verification (verifications to within the usage flush)",
    }),
    activeKeys: z.number().int().meta({ description: "Keys neither revoked nor expired now" }),
    suspended: z
      .object({ at: timestamp, reason: z.string() })
      .nullable()
      .meta({ description: "Set while the operator has suspended the wallet" }),
  })
  .meta({ id: "OperatorWallet" });

export type OperatorWalletView = z.infer<typeof operatorWallet>;

export const listWalletsOutput = z.object({ wallets: z.array(operatorWallet), nextCursor });

export const getWalletInput = z.object({ wallet: walletInput });

export const getWalletOutput = z.object({
  wallet: operatorWallet,
  keys: z.object({
    total: z.number().int().meta({ description: "Every key the wallet holds or held, revoked included" }),
    active: z.number().int(),
  }),
  sessions: z.number().int().meta({ description: "Sessions live now (neither ended nor expired)" }),
});
