import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hashKey, newKey } from "../src/keys/secret.js";
import { GITLAB_REVOCATION_LIMIT, GITLAB_TOKEN_TYPE } from "../src/leaks/gitlab-revocation.js";
import { describeDatabases } from "./support/databases.js";
import { verifyOver } from "./support/keys.js";
import { createKeysFor, postReport, reportBody, signedBy } from "./support/leak-reports.js";
import { type KeysEndpointStandIn, makeScannerKey, startKeysEndpoint } from "./support/scanner-stand-in.js";
import { startTestServer, type TestServer } from "./support/server.js";

const TOKEN = "gitlab-revocation-token-0123456789";
const LOCATION = "https://gitlab.example.com/group/repo/-/blob/abc/.env#L2";

describeDatabases("GitLab leak reports", (target) => {
  const scanner = makeScannerKey();
  let endpoint: KeysEndpointStandIn;
  let server: TestServer;
  let unset: TestServer;
  let wallet: string;

  beforeAll(async () => {
    endpoint = await startKeysEndpoint([scanner]);
    [server, unset] = await Promise.all([
      startTestServer(target, { GITLAB_SECRET_DETECTION_KEYS_URL: endpoint.url, LEAKS_GITLAB_TOKEN: TOKEN }),
      startTestServer(target),
    ]);
    wallet = (await signIn(server.baseUrl)).wallet;
  });
  afterAll(async () => {
    await Promise.all([server?.close(), unset?.close()]);
    await endpoint?.close();
  });

  const revokeTokens = (body: unknown, authorization?: string, on = server) =>
    request(on.baseUrl, "POST", "/leaks/gitlab/v1/revoke_tokens", {
      body,
      headers: authorization === undefined ? {} : { authorization },
    });

  it("revokes the keys of a report signed with GitLab's headers, and refuses GitHub's headers or a bad signature", async () => {
    const [key] = await createKeysFor(server.app, wallet, 1);
    if (key === undefined) throw new Error("no key");
    const body = reportBody([key.key, newKey("kp").key], LOCATION, "commit");
    expect((await postReport(server, body, signedBy(scanner, body, "github"), "/leaks/gitlab")).status).toBe(
      401,
    );
    expect(
      (await postReport(server, body, signedBy(makeScannerKey(), body, "gitlab"), "/leaks/gitlab")).status,
    ).toBe(401);
    expect((await verifyOver(server.baseUrl, key.key)).code).toBe("VALID");
    const answer = await postReport(server, body, signedBy(scanner, body, "gitlab"), "/leaks/gitlab");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { token_hash: hashKey(key.key), token_type: "keyport_api_key", label: "true_positive" },
      { token_hash: expect.any(String), token_type: "keyport_api_key", label: "false_positive" },
    ]);
    expect((await verifyOver(server.baseUrl, key.key)).code).toBe("REVOKED");
    const [shown] = (
      await server.app.services.procedures.keys.list({
        wallet,
        status: "revoked",
        limit: 1,
        cursor: null,
        now: new Date(),
      })
    ).keys;
    expect(shown?.leak).toMatchObject({ url: LOCATION, source: "gitlab:commit" });
  });

  it("serves the Token Revocation API: token types, 204 for a batch, with the token bare or as Bearer", async () => {
    for (const authorization of [TOKEN, `Bearer ${TOKEN}`]) {
      const types = await request(server.baseUrl, "GET", "/leaks/gitlab/v1/revocable_token_types", {
        headers: { authorization },
      });
      expect(types.status).toBe(200);
      expect(types.body).toEqual({ types: [GITLAB_TOKEN_TYPE] });
    }
    const [first, second] = await createKeysFor(server.app, wallet, 2);
    if (first === undefined || second === undefined) throw new Error("no keys");
    const batch = [first, second].map((k) => ({ type: GITLAB_TOKEN_TYPE, token: k.key, location: LOCATION }));
    const answer = await revokeTokens(
      [...batch, { type: GITLAB_TOKEN_TYPE, token: "kp_nope", location: LOCATION }],
      TOKEN,
    );
    expect(answer.status).toBe(204);
    expect(answer.body).toBe("");
    for (const k of [first, second]) expect((await verifyOver(server.baseUrl, k.key)).code).toBe("REVOKED");
    // Idempotent: the same batch again is 204 and changes nothing.
    expect((await revokeTokens(batch, `Bearer ${TOKEN}`)).status).toBe(204);
  });

  it("answers 401 without the token or with a wrong one, and 400 for a bad body or an unsupported type", async () => {
    const [key] = await createKeysFor(server.app, wallet, 1);
    if (key === undefined) throw new Error("no key");
    const batch = [{ type: GITLAB_TOKEN_TYPE, token: key.key, location: LOCATION }];
    for (const authorization of [undefined, "wrong-token-0123456789", `Bearer ${TOKEN}x`, "Bearer"]) {
      expect((await revokeTokens(batch, authorization)).status).toBe(401);
    }
    expect((await request(server.baseUrl, "GET", "/leaks/gitlab/v1/revocable_token_types")).status).toBe(401);
    expect((await revokeTokens({ not: "an array" }, TOKEN)).status).toBe(400);
    expect((await revokeTokens([{ ...batch[0], type: "gitleaks_rule_id_aws" }], TOKEN)).status).toBe(400);
    expect((await verifyOver(server.baseUrl, key.key)).code).toBe("VALID");
  });

  it("answers 501 with its reason on every GitLab route while its setting is unset", async () => {
    const body = reportBody([newKey("kp").key], LOCATION);
    const report = await postReport(unset, body, signedBy(scanner, body, "gitlab"), "/leaks/gitlab");
    expect(report.status).toBe(501);
    expect(report.body).toMatchObject({
      code: "NOT_IMPLEMENTED",
      message: "GitLab reports are not configured",
    });
    const types = await request(unset.baseUrl, "GET", "/leaks/gitlab/v1/revocable_token_types", {
      headers: { authorization: TOKEN },
    });
    expect(types.status).toBe(501);
    expect(types.body).toMatchObject({ message: "GitLab token revocation is not configured" });
    const answer = await revokeTokens([], TOKEN, unset);
    expect(answer.status).toBe(501);
    expect(answer.body).toMatchObject({
      code: "NOT_IMPLEMENTED",
      message: "GitLab token revocation is not configured",
    });
  });

  it(`answers 429 with Retry-After past ${GITLAB_REVOCATION_LIMIT.limit} requests a minute`, async () => {
    const answers = await Promise.all(
      Array.from({ length: GITLAB_REVOCATION_LIMIT.limit + 5 }, () => revokeTokens([], TOKEN)),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
