/**
 * The dispatcher's fairness and patience (docs/webhooks.md, "Fairness"), each overridable so tests
 * can use small numbers; the defaults are production's.
 */
export interface DeliverySettings {
  /** Sends under way at once in this instance (32). */
  concurrency: number;
  /** Most sends to one endpoint at once in this instance (4; an endpoint that is failing gets 1). */
  perEndpoint: number;
  /** Most sends to one wallet's endpoints at once in this instance (half of `concurrency`). */
  perWallet: number;
  /** One attempt's deadline, connect to answer (10 s). */
  timeoutMs: number;
  /** An endpoint failing this long without a 2xx is disabled (3 days). */
  disableAfterMs: number;
  /** Most undelivered (pending) deliveries an endpoint holds; the oldest beyond are dropped (10,000). */
  maxUndelivered: number;
  /** How often the dispatcher drops what is beyond `maxUndelivered` (10 s). */
  trimIntervalMs: number;
  /** At most this long between looks for due deliveries (1 s). */
  pollIntervalMs: number;
}

export const DEFAULT_DELIVERY_SETTINGS = {
  concurrency: 32,
  perEndpoint: 4,
  timeoutMs: 10_000,
  disableAfterMs: 3 * 86_400_000,
  maxUndelivered: 10_000,
  trimIntervalMs: 10_000,
  pollIntervalMs: 1_000,
} as const satisfies Omit<DeliverySettings, "perWallet">;

/** The settings with defaults filled in: `perWallet` follows `concurrency` unless given. */
export function deliverySettings(overrides: Partial<DeliverySettings> = {}): DeliverySettings {
  const concurrency = overrides.concurrency ?? DEFAULT_DELIVERY_SETTINGS.concurrency;
  return {
    ...DEFAULT_DELIVERY_SETTINGS,
    perWallet: Math.max(1, Math.floor(concurrency / 2)),
    ...overrides,
    concurrency,
  };
}
