import { operatorTokenPrefix } from "../operator/token-secret.js";
import { GITLAB_TOKEN_TYPE } from "./gitlab-revocation.js";

/**
 * The pattern of a key of `prefix` (keys/secret.ts: `<prefix>_` + 32 random and 6 checksum base62
 * characters), bounded so that it matches a whole key and not the start of a longer word.
 * @example new RegExp(keyPattern("kp")).test(newKey("kp").key) // true
 */
export function keyPattern(prefix: string): string {
  return `\\b${prefix}_[0-9A-Za-z]{38}\\b`;
}

/**
 * What an operator enrols with the scanners for their KEY_PREFIX (docs/leaks.md): the regex for
 * GitHub's and GitLab's partner programmes, a gitleaks rule (TOML) and a TruffleHog custom detector
 * (YAML) that verifies matches at `baseUrl`'s `/leaks/trufflehog`.
 */
export function detectionRules(prefix: string, baseUrl: string): string {
  const pattern = keyPattern(prefix);
  const tokenPrefix = operatorTokenPrefix(prefix);
  const tokenPattern = keyPattern(tokenPrefix);
  const verifyUrl = new URL("/leaks/trufflehog", baseUrl).toString();
  const ruleId = GITLAB_TOKEN_TYPE.replace(/^gitleaks_rule_id_/, "");
  return `# Keyport detection rules for KEY_PREFIX=${prefix}

## Regex (GitHub secret scanning partner programme, GitLab secret detection)
${pattern}

## gitleaks rule (.gitleaks.toml; GitLab's revocation type is ${GITLAB_TOKEN_TYPE})
[[rules]]
id = "${ruleId}"
description = "Keyport API key (${prefix}_)"
regex = '''${pattern}'''
keywords = ["${prefix}_"]

## TruffleHog custom detector (config.yaml)
detectors:
  - name: KeyportApiKey
    keywords:
      - ${prefix}_
    regex:
      key: '${pattern}'
    verify:
      - endpoint: ${verifyUrl}
        unsafe: ${verifyUrl.startsWith("http:") ? "true" : "false"}

## Operator tokens (${tokenPrefix}_, docs/operator.md): enrol this regex too; the same routes revoke them
${tokenPattern}

[[rules]]
id = "${ruleId}_operator"
description = "Keyport operator token (${tokenPrefix}_)"
regex = '''${tokenPattern}'''
keywords = ["${tokenPrefix}_"]
`;
}
