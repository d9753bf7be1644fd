import { request } from "@keyport/test-support/http";
import type { App } from "../../src/app.js";
import { type ScannerKey, signReport } from "./scanner-stand-in.js";
import type { TestServer } from "./server.js";

/** One entry of GitHub's feedback array. */
export interface Feedback {
  token_hash: string;
  token_type: string;
  label: string;
}

/** Posts `body` as it is (bytes unchanged) to a partner route with `headers`. */
export function postReport(
  server: TestServer,
  body: string,
  headers: Record<string, string>,
  path = "/leaks/github",
) {
  return request(server.baseUrl, "POST", path, {
    rawBody: body,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** The signature headers of `partner` (`github` or `gitlab`) for `body` signed with `key`. */
export function signedBy(key: ScannerKey, body: string, partner = "github"): Record<string, string> {
  return {
    [`${partner}-public-key-identifier`]: key.identifier,
    [`${partner}-public-key-signature`]: signReport(key, body),
  };
}

/** A report body of `tokens`, all found at `url` in `source`. */
export function reportBody(tokens: readonly string[], url: string, source = "content"): string {
  return JSON.stringify(tokens.map((token) => ({ token, type: "keyport_api_key", url, source })));
}

/**
 * Creates `count` plain keys for `wallet` through the app's key store (the code `POST /api-keys` runs,
 * without a request each): many keys in little time.
 */
export async function createKeysFor(
  app: App,
  wallet: string,
  count: number,
  name = "key",
): Promise<{ key: string; id: string }[]> {
  const keys: { key: string; id: string }[] = [];
  for (let i = 0; i < count; i++) {
    const created = await app.services.procedures.keys.create({
      wallet,
      name: `${name} ${i}`,
      expiresAt: null,
      allowedIps: null,
      rateLimits: [],
      permissions: [],
      credits: null,
      meta: null,
      now: new Date(),
    });
    if (!created.ok) throw new Error("create refused at the cap");
    keys.push({ key: created.key, id: created.apiKey.id });
  }
  return keys;
}
