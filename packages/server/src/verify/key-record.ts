import type { IpAllowList } from "../keys/ip-allow-list.js";
import type { AppliedLimit, PlanLimits } from "../ratelimit/applied-limits.js";
import type { KeyMeta } from "../schemas/key-policy.js";
import type { NamedRateLimit } from "../schemas/rate-limits.js";

/** What verification needs to know about a key: the cached projection of its row. */
export interface KeyRecord {
  id: string;
  wallet: string;
  name: string;
  expiresAt: Date | null;
  /** May lie in the future: a rolled key's old secret works until the end of its grace period. */
  revokedAt: Date | null;
  /** The key's own named limits ([] when none). */
  rateLimits: NamedRateLimit[];
  /**
   * The wallet-wide named limits (shared by all of the wallet's keys), read with the key so a
   * wallet without any costs nothing extra; [] when the wallet has none.
   */
  walletRateLimits: NamedRateLimit[];
  /** What a verification naming no limit applies (autoAppliedLimits), built once when the key is loaded. */
  autoLimits: AppliedLimit[];
  permissions: string[];
  meta: KeyMeta | null;
  /** The credit balance this key spends (shared with the key it was rolled from or to); null: not metered. */
  creditsId: string | null;
  /** The key's allowedIps, compiled when the key is loaded (so a verification parses only its `ip`); null: any address. */
  allowedIps: IpAllowList | null;
  /**
   * The operator suspended the key's wallet (docs/operator.md#suspension): read with the key, and the
   * wallet's cached keys are forgotten on every instance when it changes.
   */
  suspended: boolean;
  /** The wallet's plan when the key was loaded (docs/plans.md); absent: no plan applies. */
  plan?: KeyPlan | undefined;
}

/** What verification applies of the wallet's plan, read with the key. */
export interface KeyPlan {
  id: string;
  name: string;
  /** The patterns the plan grants; null when it grants any (`["*"]`), so the check costs nothing. */
  permissions: readonly string[] | null;
  /** Its wallet-wide limits and the limit on each key (already in the record's `autoLimits`). */
  limits: PlanLimits;
  /** Epoch ms when the wallet's paid plan ends and the default plan applies; null: never. */
  until: number | null;
}
