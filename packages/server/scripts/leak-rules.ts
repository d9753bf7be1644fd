// Prints the detection rules for this deployment's KEY_PREFIX (docs/leaks.md): the regex to enrol with
// GitHub and GitLab, a gitleaks rule and a TruffleHog custom detector.
//
//   pnpm --filter @keyport/server leak-rules [public base URL]    default http://localhost:<PORT>
//
// Settings come from env.ts, as the server reads them, so the prefix is the one the server issues.
import { loadEnv } from "../src/env.js";
import { publicUrl } from "../src/http/public-url.js";
import { detectionRules } from "../src/leaks/detection-rules.js";

const env = loadEnv();
const baseUrl = process.argv[2] ?? publicUrl(env.HOST, env.PORT);
process.stdout.write(detectionRules(env.KEY_PREFIX, baseUrl));
