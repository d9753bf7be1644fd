import type { Db } from "../db/database.js";
import type { RawQuery } from "../db/raw.js";
import { errorSummary } from "../logger.js";
import type { WebhookMetrics, WebhookOutcome } from "../metrics/webhooks.js";
import { type ClaimedDelivery, claimDueDeliveries } from "./claim.js";
import { type DeliverySettings, deliverySettings } from "./delivery-settings.js";
import { decryptSecret } from "./secret.js";
import { type AttemptResult, sendWebhook } from "./send.js";
import { type ResolveHost, systemResolve } from "./send-address.js";
import { settleFailure, settlementOf, skipDelivery } from "./settle.js";
import { createSuccessRecorder } from "./settle-batch.js";
import { signatureHeaders } from "./sign.js";
import { dropOverflow } from "./trim.js";
import { onWebhooksWake } from "./wake.js";

export interface WebhookDispatcherOptions extends Partial<DeliverySettings> {
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
 * Starts delivering the outbox (docs/webhooks.md, "Delivery" and "Fairness"): every instance runs
 * one; each look claims due deliveries fairly across endpoints and wallets (claim.ts) up to its free
 * send slots, signs and sends each, and records the outcome on the retry schedule (successes many to
 * a statement: settle-batch.ts). It looks at start, every `pollIntervalMs`, on `wakeWebhooks()`, and,
 * while a look filled every slot it could (a backlog), again as soon as a quarter of the slots are
 * free: claims go in batches rather than one per finished send. Every `trimIntervalMs` it drops what
 * an endpoint holds beyond `maxUndelivered` (trim.ts).
 */
export function startWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  const resolve = options.resolve ?? systemResolve;
  const settings = deliverySettings(options);
  const { concurrency, timeoutMs } = settings;
  const refillAt = Math.ceil(concurrency / 4);
  const successes = createSuccessRecorder(options.query);
  const sends = new Set<Promise<void>>();
  const busyEndpoints = new Map<string, number>();
  const busyWallets = new Map<string, number>();
  let lastTrim = Number.NEGATIVE_INFINITY;
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
    claiming = trimWhenDue()
      .catch((error: unknown) =>
        options.logger.warn({ err: errorSummary(error) }, "webhook overflow trim failed; will retry"),
      )
      .then(() =>
        claimDueDeliveries(options.query, clock(), {
          free,
          perEndpoint: settings.perEndpoint,
          perWallet: settings.perWallet,
          busyEndpoints,
          busyWallets,
        }),
      )
      .then(
        (claimed) => {
          // Anything claimed may mean more is due: look again as sends finish.
          backlog = claimed.length > 0;
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

  async function trimWhenDue(): Promise<void> {
    const now = performance.now();
    if (now - lastTrim < settings.trimIntervalMs) return;
    lastTrim = now;
    const dropped = await dropOverflow(options.query, settings.maxUndelivered);
    if (dropped > 0) options.metrics?.delivered("dropped", dropped);
  }

  function start(delivery: ClaimedDelivery): void {
    count(busyEndpoints, delivery.webhook_id, 1);
    count(busyWallets, delivery.wallet, 1);
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
        count(busyEndpoints, delivery.webhook_id, -1);
        count(busyWallets, delivery.wallet, -1);
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
    if (settlement.kind === "succeeded") {
      await successes.record(delivery, result, at);
      return "succeeded";
    }
    const outcome = await settleFailure(
      options.db,
      delivery,
      result,
      at,
      settlement,
      settings.disableAfterMs,
    );
    // A stale answer (its claim lapsed and was taken again) is counted as what it would have been.
    if (outcome === "stale") return settlement.kind === "retry" ? "retrying" : "failed";
    return outcome === "retrying" ? "retrying" : "failed";
  }

  const timer = setInterval(look, settings.pollIntervalMs);
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

/** Adds `by` to `key`'s count, forgetting keys that reach zero. */
function count(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
