import { RECENT_VERIFICATIONS_KEPT } from "../key-verifications.js";

/** The OpenAPI description of routers/key-verifications.ts's operation (docs/api.md says the same for people). */
export const keyVerificationsDescription = `The key's last ${RECENT_VERIFICATIONS_KEPT} verifications at most, newest first: when (\`at\`), the \`outcome\` (the code usage counts), the \`permissions\` and \`cost\` the request asked (cost default 1) and the client \`ip\` it gave (null when none); never the key or its hash. Unknown keys record nothing, and with USAGE_RECORDING=off nothing is recorded. They are written with the usage counts every USAGE_FLUSH_INTERVAL_MS (default 1 s), so the latest second may not show yet; older ones are deleted by the same write. Another wallet's key is 404.`;
