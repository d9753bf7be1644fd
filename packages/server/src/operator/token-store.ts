import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/database.js";
import { type OperatorTokenRow, operatorTokens } from "../db/schema/index.js";
import {
  MAX_ACTIVE_OPERATOR_TOKENS,
  type OperatorActor,
  type OperatorScope,
  type OperatorTokenView,
  operatorScope,
} from "../schemas/operator.js";
import { recordOperatorEvent } from "./audit.js";
import { hashOperatorToken, isOperatorToken, newOperatorToken, newOperatorTokenId } from "./token-secret.js";

/** A live token, as a request presents it. */
export interface LiveOperatorToken {
  id: string;
  name: string;
  scopes: ReadonlySet<OperatorScope>;
}

/** What a new token is made of. */
export interface NewOperatorTokenParams {
  name: string;
  scopes: readonly OperatorScope[];
  expiresAt?: Date | undefined;
}

/** The answer of a refused create: the deployment holds MAX_ACTIVE_OPERATOR_TOKENS live tokens. */
export class OperatorTokenCapReached extends Error {
  override name = "OperatorTokenCapReached";
}

const scopes = z.array(operatorScope);

/** A stored token as routes return it (no secret, no hash). */
export function operatorTokenView(row: OperatorTokenRow, now: Date): OperatorTokenView {
  const status =
    row.revokedAt !== null
      ? "revoked"
      : row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()
        ? "expired"
        : "active";
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    scopes: scopes.parse(row.scopes),
    status,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    leakedAt: row.leakReportedAt,
  };
}

const live = (now: Date) =>
  and(
    isNull(operatorTokens.revokedAt),
    or(isNull(operatorTokens.expiresAt), gt(operatorTokens.expiresAt, now)),
  );

// One lock for every create, so two at once cannot both pass the cap's count.
const CREATE_LOCK = sql`select pg_advisory_xact_lock(hashtext('keyport.operator_tokens.create'))`;

/**
 * Creates a token (the cap of live tokens holds under concurrent creates) and records
 * `token.created` in the same transaction. Returns the secret, shown once.
 * @throws OperatorTokenCapReached at MAX_ACTIVE_OPERATOR_TOKENS live tokens.
 */
export async function createOperatorToken(
  db: Db,
  keyPrefix: string,
  params: NewOperatorTokenParams,
  actor: OperatorActor,
  now: Date,
): Promise<{ token: OperatorTokenView; secret: string }> {
  const secret = newOperatorToken(keyPrefix);
  const row = await db.transaction(async (tx) => {
    await tx.execute(CREATE_LOCK);
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(operatorTokens).where(live(now));
    if ((count?.n ?? 0) >= MAX_ACTIVE_OPERATOR_TOKENS) throw new OperatorTokenCapReached();
    const [inserted] = await tx
      .insert(operatorTokens)
      .values({
        id: newOperatorTokenId(),
        name: params.name,
        hash: secret.hash,
        start: secret.start,
        scopes: [...params.scopes],
        createdAt: now,
        createdBy: actor,
        expiresAt: params.expiresAt ?? null,
      })
      .returning();
    if (!inserted) throw new Error("insert returned no row");
    await recordOperatorEvent(tx, {
      actor,
      action: "token.created",
      at: now,
      changes: {
        id: inserted.id,
        name: inserted.name,
        scopes: [...params.scopes],
        expiresAt: params.expiresAt?.toISOString() ?? null,
      },
    });
    return inserted;
  });
  return { token: operatorTokenView(row, now), secret: secret.key };
}

/** A page of tokens, newest first; `cursor` is the last token id of the previous page. */
export async function listOperatorTokens(db: Db, params: { limit: number; after: string | null }, now: Date) {
  const rows = await db
    .select()
    .from(operatorTokens)
    .where(
      params.after === null
        ? undefined
        : sql`(${operatorTokens.createdAt}, ${operatorTokens.id}) < (select created_at, id from ${operatorTokens} where id = ${params.after})`,
    )
    .orderBy(desc(operatorTokens.createdAt), desc(operatorTokens.id))
    .limit(params.limit + 1);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  return {
    tokens: page.map((row) => operatorTokenView(row, now)),
    nextCursor: rows.length > params.limit && last ? last.id : null,
  };
}

/**
 * Revokes a token now (idempotent: a revoked one is returned as it is, and records nothing more);
 * null when there is no such token.
 */
export async function revokeOperatorToken(
  db: Db,
  id: string,
  actor: OperatorActor,
  now: Date,
): Promise<OperatorTokenView | null> {
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(operatorTokens)
      .set({ revokedAt: now })
      .where(and(eq(operatorTokens.id, id), isNull(operatorTokens.revokedAt)))
      .returning();
    if (revoked) {
      await recordOperatorEvent(tx, {
        actor,
        action: "token.revoked",
        at: now,
        changes: { id: revoked.id, name: revoked.name },
      });
      return operatorTokenView(revoked, now);
    }
    const [existing] = await tx.select().from(operatorTokens).where(eq(operatorTokens.id, id)).limit(1);
    return existing ? operatorTokenView(existing, now) : null;
  });
}

/**
 * The live token a request presents, or null (malformed, unknown, revoked or expired). Its last use is
 * written at most once a minute a token, after the answer is decided and never failing the request.
 */
export function createOperatorTokenLookup(db: Db, keyPrefix: string, onError: (error: unknown) => void) {
  const written = new Map<string, number>();
  return async (secret: string, now: Date): Promise<LiveOperatorToken | null> => {
    if (!isOperatorToken(secret, keyPrefix)) return null;
    const [row] = await db
      .select({ id: operatorTokens.id, name: operatorTokens.name, scopes: operatorTokens.scopes })
      .from(operatorTokens)
      .where(and(eq(operatorTokens.hash, hashOperatorToken(secret)), live(now)))
      .limit(1);
    if (!row) return null;
    const last = written.get(row.id);
    if (last === undefined || now.getTime() - last >= 60_000) {
      written.set(row.id, now.getTime());
      db.update(operatorTokens)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(operatorTokens.id, row.id),
            or(
              isNull(operatorTokens.lastUsedAt),
              lt(operatorTokens.lastUsedAt, new Date(now.getTime() - 60_000)),
            ),
          ),
        )
        .then(undefined, onError);
    }
    return { id: row.id, name: row.name, scopes: new Set(scopes.parse(row.scopes)) };
  };
}
