import { createMemoryRateLimiter, createTrustedProxies } from "@keyport/node-edge";
import type { Logger } from "pino";
import type { Env } from "../env.js";
import type { RawRoute } from "../http/raw-route.js";
import type { LeakMetrics } from "../metrics/leaks.js";
import type { VerificationServices } from "../verify/verification-services.js";
import { createGitlabRevocationRoutes } from "./gitlab-revocation.js";
import type { LeakService } from "./leak-service.js";
import { createPartnerRoute } from "./partner-route.js";
import { createSelfReportLimit } from "./self-report-limit.js";
import { createSigningKeySet } from "./signing-keys.js";
import { createTrufflehogRoute } from "./trufflehog.js";

/** Every leak route by `"METHOD /path"` (docs/leaks.md): GitHub, GitLab (both protocols), TruffleHog. */
export function createLeakRoutes(
  env: Env,
  leaks: LeakService,
  verification: Pick<VerificationServices, "rateLimiter">,
  metrics: LeakMetrics,
  logger: Logger,
): Map<string, RawRoute> {
  const github = createSigningKeySet({ url: env.GITHUB_SECRET_SCANNING_KEYS_URL, logger });
  const gitlabUrl = env.GITLAB_SECRET_DETECTION_KEYS_URL;
  const gitlab = gitlabUrl === undefined ? null : createSigningKeySet({ url: gitlabUrl, logger });
  // Like the other per-client limits: the shared Redis counters, or a limiter of its own in this process.
  const perClient = () =>
    env.REDIS_URL === undefined ? createMemoryRateLimiter() : verification.rateLimiter;
  const revocation = createGitlabRevocationRoutes({
    token: env.LEAKS_GITLAB_TOKEN,
    leaks,
    metrics,
    store: perClient(),
  });
  const trufflehogLimit = createSelfReportLimit(perClient(), env.NONCE_RATE_LIMIT, "trufflehog");
  const trustedProxies = createTrustedProxies(env.TRUSTED_PROXIES);
  return new Map([
    ["POST /leaks/github", createPartnerRoute({ partner: "github", keys: github, leaks, metrics })],
    ["POST /leaks/gitlab", createPartnerRoute({ partner: "gitlab", keys: gitlab, leaks, metrics })],
    ["GET /leaks/gitlab/v1/revocable_token_types", revocation.types],
    ["POST /leaks/gitlab/v1/revoke_tokens", revocation.revoke],
    ["POST /leaks/trufflehog", createTrufflehogRoute(leaks, metrics, trufflehogLimit, trustedProxies)],
  ]);
}
