import type { z } from "zod";
import type { Db } from "../db/database.js";
import { decodeEventCursor } from "../events/cursor.js";
import type {
  OperatorActor,
  OperatorEventView,
  OperatorScope,
  OperatorTokenView,
} from "../schemas/operator.js";
import type { OperatorPaymentView, paymentTotalsOutput } from "../schemas/operator-payments.js";
import type { deploymentUsageOutput } from "../schemas/operator-usage.js";
import type { OperatorWalletView, WalletSort } from "../schemas/operator-wallets.js";
import type { UsageRange } from "../usage/series.js";
import { listOperatorEvents } from "./audit.js";
import { readDeploymentUsage } from "./deployment-usage.js";
import {
  decodePaymentCursor,
  encodePaymentCursor,
  listSettledPayments,
  type PaymentRange,
  paymentTotals,
  settledPaymentBatches,
} from "./payment-ledger.js";
import { isOperatorToken } from "./token-secret.js";
import {
  createOperatorToken,
  createOperatorTokenLookup,
  type LiveOperatorToken,
  listOperatorTokens,
  type NewOperatorTokenParams,
  revokeOperatorToken,
} from "./token-store.js";
import { decodeWalletCursor } from "./wallet-cursor.js";
import { getWallet, listWallets } from "./wallet-directory.js";

/** The operator's half of the server, as procedures use it (docs/operator.md). */
export interface OperatorService {
  /** Whether `wallet` (EIP-55) is in OPERATOR_WALLETS. */
  isOperatorWallet(wallet: string): boolean;
  /** Whether a bearer has an operator token's shape (`<KEY_PREFIX>o_`, checksummed): no I/O. */
  isTokenShaped(bearer: string): boolean;
  /** The live token of this secret, or null. */
  findToken(secret: string): Promise<LiveOperatorToken | null>;
  createToken(
    params: NewOperatorTokenParams,
    actor: OperatorActor,
  ): Promise<{ token: OperatorTokenView; secret: string }>;
  /** A page of tokens; null when `cursor` is not one this server gave. */
  listTokens(params: { limit: number; cursor?: string | undefined }): Promise<{
    tokens: OperatorTokenView[];
    nextCursor: string | null;
  } | null>;
  revokeToken(id: string, actor: OperatorActor): Promise<OperatorTokenView | null>;
  /** A page of the operator trail; null when `cursor` is not one this server gave. */
  listEvents(params: { limit: number; cursor?: string | undefined; wallet?: string | undefined }): Promise<{
    events: OperatorEventView[];
    nextCursor: string | null;
  } | null>;
  /** A page of the deployment's wallets; null when `cursor` is not one this server gave for `sort`. */
  listWallets(params: {
    q?: string | undefined;
    sort: WalletSort;
    limit: number;
    cursor?: string | undefined;
  }): Promise<{ wallets: OperatorWalletView[]; nextCursor: string | null } | null>;
  /** A page of settled payments, newest first; null when `cursor` is not one this server gave. */
  listPayments(params: {
    range: PaymentRange;
    wallet?: string | undefined;
    limit: number;
    cursor?: string | undefined;
  }): Promise<{ payments: OperatorPaymentView[]; nextCursor: string | null } | null>;
  /** Settled payments summed per (network, asset), over the range and per UTC day. */
  paymentTotals(range: PaymentRange): Promise<z.infer<typeof paymentTotalsOutput>>;
  /** Every settled payment of the range, oldest first, in bounded batches (the CSV export). */
  exportPayments(range: PaymentRange): AsyncGenerator<OperatorPaymentView[]>;
  /** The deployment's verifications by day and outcome, and its top wallets and keys, over whole UTC days. */
  deploymentUsage(range: UsageRange): Promise<z.infer<typeof deploymentUsageOutput>>;
  /** One wallet with its key counts and live sessions; null when the deployment does not know it. */
  getWallet(address: string): Promise<{
    wallet: OperatorWalletView;
    keys: { total: number; active: number };
    sessions: number;
  } | null>;
}

/** Options of {@link createOperatorService}. */
export interface OperatorServiceOptions {
  db: Db;
  keyPrefix: string;
  /** OPERATOR_WALLETS, EIP-55 checksummed. */
  operatorWallets: readonly string[];
  /** Where a failed background write (a token's last use) is reported. */
  onBackgroundError: (error: unknown) => void;
}

const TOKEN_ID = /^opt_[0-9A-Za-z]{22}$/;

export function createOperatorService(options: OperatorServiceOptions): OperatorService {
  const { db, keyPrefix } = options;
  const wallets = new Set(options.operatorWallets);
  const lookup = createOperatorTokenLookup(db, keyPrefix, options.onBackgroundError);
  return {
    isOperatorWallet: (wallet) => wallets.has(wallet),
    isTokenShaped: (bearer) => isOperatorToken(bearer, keyPrefix),
    findToken: (secret) => lookup(secret, new Date()),
    createToken: (params, actor) => createOperatorToken(db, keyPrefix, params, actor, new Date()),
    async listTokens({ limit, cursor }) {
      // The cursor is the last token id of the previous page.
      if (cursor !== undefined && !TOKEN_ID.test(cursor)) return null;
      return listOperatorTokens(db, { limit, after: cursor ?? null }, new Date());
    },
    revokeToken: (id, actor) => revokeOperatorToken(db, id, actor, new Date()),
    async listEvents({ limit, cursor, wallet }) {
      const before = cursor === undefined ? null : decodeEventCursor(cursor);
      if (cursor !== undefined && before === null) return null;
      return listOperatorEvents(db, { limit, before, wallet });
    },
    async listWallets({ q, sort, limit, cursor }) {
      const after = cursor === undefined ? null : decodeWalletCursor(cursor, sort);
      if (cursor !== undefined && after === null) return null;
      return listWallets(db, { q, sort, limit, cursor: after, now: new Date() });
    },
    getWallet: (address) => getWallet(db, address, new Date()),
    async listPayments({ range, wallet, limit, cursor }) {
      const before = cursor === undefined ? null : decodePaymentCursor(cursor);
      if (cursor !== undefined && before === null) return null;
      const page = await listSettledPayments(db, { range, wallet, limit, before });
      return {
        payments: page.payments,
        nextCursor: page.next === null ? null : encodePaymentCursor(page.next),
      };
    },
    paymentTotals: (range) => paymentTotals(db, range),
    exportPayments: (range) => settledPaymentBatches(db, range),
    deploymentUsage: (range) => readDeploymentUsage(db, range),
  };
}

/** Who is calling an operator procedure, as `operatorProcedure` found it. */
export interface OperatorIdentity {
  actor: OperatorActor;
  /** A token's scopes; null for an operator session, which may do everything. */
  scopes: ReadonlySet<OperatorScope> | null;
}
