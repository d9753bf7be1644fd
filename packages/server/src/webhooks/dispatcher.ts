import type { Db } from "../db/database.js";
import type { RawQuery } from "../db/raw.js";
import { errorSummary } from "../logger.js";
import type { WebhookMetrics, WebhookOutcome } from "../metrics/webhooks.js";
import { type ClaimedDelivery, claimDueDeliveries } from "./claim.js";
import { retryDelayMs } from "./schedule.js";
import { decryptSecret } from "./secret.js";
import { type AttemptResult, sendWebhook } from "./send.js";
import { type ResolveHost, systemResolve } from "./send-address.js";
import { type Settlement, settleDelivery, skipDelivery } from "./settle.js";
import { createSuccessRecorder } from "./settle-batch.js";
import { signatureHeaders } from "./sign.js";
import { onWebhooksWake } from "./wake.js";

export interface WebhookDispatcherOptions {
  db: Db;
  query: RawQuery;
  /** WEBHOOKS_ENCRYPTION_KEY (services.webhooksKey): decrypts the signing secrets. */
  key: Buffer;
  /** WEBHOOKS_ALLOW_PRIVATE: plain http and private addresses allowed. */
  allowPrivate: boolean;
  logger: DispatcherLogger;
  metrics?: WebhookMetrics;
  /** The time claims, signatures and the schedule use (tests move it). */
  clock?: () => Date;
  /** The retry jitter's source, a number in [0, 1). */
  random?: () => number;
  /** How send-time checks resolve host names. */
  resolve?: ResolveHost;
  /** At most this long between looks for due deliveries (default 1 s). */
  pollIntervalMs?: number;
  /** Sends under way at once in this instance (default 32). */
  concurrency?: number;
  /** One attempt's deadline, connect to answer (default 10 s). */
  timeoutMs?: number;
}

/** The two log levels the dispatcher writes (a pino logger is one). */
export interface DispatcherLogger {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A running dispatcher. */
export interface WebhookDispatcher {
  /** Looks for due deliveries now. */
  wake(): void;
  /** Stops claiming and waits for the sends under way (each bounded by its deadline). Idempotent. */
  stop(): Promise<void>;
}

const USER_AGENT = "Keyport-Webhooks/1";

/**
 * Starts delivering the outbox (docs/webhooks.md, "Delivery"): every instance runs one; each look
 * claims due deliveries (claim.ts) up to its free send slots, signs and sends each, and records the
 * outcome on the retry schedule (successes many to a statement: settle-batch.ts). It looks at start,
 * every `pollIntervalMs`, on `wakeWebhooks()`, and, while a look filled every slot (a backlog), again
 * as soon as half the slots are free: claims go in batches rather than one per finished send.
 */
export function startWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  const resolve = options.resolve ?? systemResolve;
  const concurrency = options.concurrency ?? 32;
  const refillAt = Math.ceil(concurrency / 2);
  const successes = createSuccessRecorder(options.query);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const sends = new Set<Promise<void>>();
  let claiming: Promise<void> | undefined;
  let again = false;
  let backlog = false;
  let stopped = false;

  function look(): void {
    if (stopped) return;
    if (claiming !== undefined) {
      again = true;
      return;
    }
    const free = concurrency - sends.size;
    if (free <= 0) return;
    claiming = claimDueDeliveries(options.query, clock(), free)
      .then(
        (claimed) => {
          backlog = claimed.length === free;
          for (const delivery of claimed) start(delivery);
        },
        (error: unknown) =>
          options.logger.warn({ err: errorSummary(error) }, "webhook claim failed; will retry"),
      )
      .finally(() => {
        claiming = undefined;
        if (again) {
          again = false;
          look();
        }
      });
  }

  function start(delivery: ClaimedDelivery): void {
    const send = deliver(delivery)
      .then(
        (outcome) => options.metrics?.delivered(outcome),
        (error: unknown) =>
          // The claim's lease lapses and the delivery is tried again (at most once more).
          options.logger.error(
            { err: errorSummary(error), delivery: delivery.id },
            "webhook delivery not recorded",
          ),
      )
      .finally(() => {
        sends.delete(send);
        if (backlog && concurrency - sends.size >= refillAt) look();
      });
    sends.add(send);
  }

  async function deliver(delivery: ClaimedDelivery): Promise<WebhookOutcome> {
    if (!delivery.enabled) {
      await skipDelivery(options.db, delivery);
      return "skipped";
    }
    const at = clock();
    const secrets = signingSecrets(delivery, options.key, at);
    const result: AttemptResult =
      secrets === undefined
        ? { statusCode: null, durationMs: 0, response: "signing secret unreadable" }
        : await sendWebhook(
            delivery.url,
            {
              ...signatureHeaders({ id: delivery.message_id, at, body: delivery.body }, secrets),
              "content-type": "application/json",
              "user-agent": USER_AGENT,
            },
            delivery.body,
            { timeoutMs, allowPrivate: options.allowPrivate, resolve },
          );
    if (secrets === undefined) {
      options.logger.error(
        { webhook: delivery.webhook_id },
        "webhook secret does not decrypt under WEBHOOKS_ENCRYPTION_KEY",
      );
    }
    const settlement = settlementOf(result, delivery.attempts, clock(), random);
    if (settlement.kind === "succeeded") await successes.record(delivery, result, at);
    else await settleDelivery(options.db, delivery, result, at, settlement);
    if (settlement.kind === "succeeded") return "succeeded";
    return settlement.kind === "retry" ? "retrying" : "failed";
  }

  const timer = setInterval(look, options.pollIntervalMs ?? 1_000);
  timer.unref();
  const unsubscribe = onWebhooksWake(look);
  look();

  return {
    wake: look,
    async stop() {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      await claiming;
      await Promise.all([...sends]);
    },
  };
}

/** The new secret, and the previous one while its overlap lasts; undefined when they do not decrypt. */
function signingSecrets(delivery: ClaimedDelivery, key: Buffer, at: Date): string[] | undefined {
  try {
    const secrets = [decryptSecret(key, delivery.secret)];
    const until = delivery.previous_secret_expires_at;
    if (delivery.previous_secret !== null && until !== null && until > at) {
      secrets.push(decryptSecret(key, delivery.previous_secret));
    }
    return secrets;
  } catch {
    return undefined;
  }
}

/** 2xx succeeds; 410 disables at once; anything else retries on the schedule until it runs out. */
export function settlementOf(
  result: AttemptResult,
  attempts: number,
  now: Date,
  random: () => number,
): Settlement {
  const status = result.statusCode;
  if (status !== null && status >= 200 && status < 300) return { kind: "succeeded" };
  if (status === 410) return { kind: "disable", reason: "gone" };
  const delay = retryDelayMs(attempts, random);
  if (delay === undefined) return { kind: "disable", reason: "failing" };
  return { kind: "retry", at: new Date(now.getTime() + delay) };
}
