// Signs in to a running Keyport server with Sign-In with Ethereum, for docs/rest-walkthrough.md.
//
//   tsx scripts/sign-in.ts                 full sign-in; prints `export KEYPORT_TOKEN=... KEYPORT_WALLET=...`
//   tsx scripts/sign-in.ts --nonce <nonce>  only signs; prints the JSON body for POST /auth/verify
//
// Settings (read here because this is a standalone tool, not the server): KEYPORT_URL
// (http://localhost:3000), PRIVATE_KEY (0x...; a throwaway account when unset), SIWE_DOMAIN
// (localhost:<DASHBOARD_PORT>, DASHBOARD_PORT 3001: the dashboard's host, which both `pnpm start` and the
// server alone accept), CHAIN_ID (1). Human-readable notes go to stderr so stdout can be captured.
import { type Hex, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";

const baseUrl = process.env.KEYPORT_URL ?? "http://localhost:3000";
const domain = process.env.SIWE_DOMAIN || dashboardHost(process.env.DASHBOARD_PORT);
const chainId = Number(process.env.CHAIN_ID ?? "1");
const privateKey: Hex = readPrivateKey(process.env.PRIVATE_KEY);
const account = privateKeyToAccount(privateKey);

/**
 * The dashboard's host as `pnpm start` gives it to the server's SIWE_DOMAINS: `localhost:<DASHBOARD_PORT>`
 * (3001 when unset), the port left out when it is 80, as a browser's `location.host` does.
 */
function dashboardHost(value: string | undefined): string {
  const raw = value || "3001";
  const port = Number(raw);
  if (!/^[0-9]+$/.test(raw) || port < 1 || port > 65_535)
    throw new Error(`DASHBOARD_PORT must be a port number from 1 to 65535 (got "${raw}")`);
  return port === 80 ? "localhost" : `localhost:${port}`;
}

function readPrivateKey(value: string | undefined): Hex {
  if (value === undefined || value === "") return generatePrivateKey();
  if (!isHex(value) || value.length !== 66)
    throw new Error("PRIVATE_KEY must be 0x followed by 64 hex characters");
  return value;
}

async function post(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(baseUrl + path, {
    method: "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await response.json();
  if (!response.ok || typeof json !== "object" || json === null) {
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
  }
  return Object.fromEntries(Object.entries(json));
}

async function signedBody(nonce: string) {
  const message = createSiweMessage({
    address: account.address,
    domain,
    // The URI's host[:port] must be one of the server's SIWE_DOMAINS, as the domain must.
    uri: `http://${domain}/`,
    version: "1",
    chainId,
    nonce,
    issuedAt: new Date(),
    statement: "Sign in to Keyport",
  });
  return { message, signature: await account.signMessage({ message }) };
}

async function main(): Promise<void> {
  const nonceFlag = process.argv.indexOf("--nonce");
  if (nonceFlag !== -1) {
    const nonce = process.argv[nonceFlag + 1];
    if (!nonce) throw new Error("--nonce needs the nonce from POST /auth/nonce");
    process.stderr.write(`signing as ${account.address}\n`);
    process.stdout.write(`${JSON.stringify(await signedBody(nonce))}\n`);
    return;
  }
  const { nonce } = await post("/auth/nonce");
  if (typeof nonce !== "string") throw new Error("no nonce in the response");
  const session = await post("/auth/verify", await signedBody(nonce));
  process.stderr.write(`signed in as ${String(session.wallet)} until ${String(session.expiresAt)}\n`);
  process.stdout.write(
    `export KEYPORT_TOKEN=${String(session.token)} KEYPORT_WALLET=${String(session.wallet)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`sign-in failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
