import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { portOf } from "@keyport/test-support/port";
import { x402Facilitator } from "@x402/core/facilitator";
import { isPaymentPayloadV2, isPaymentRequirementsV2, type PaymentRequirementsV2 } from "@x402/core/schemas";
import type { Network, PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { type Address, createTestClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSettlerSigner } from "../../src/payments/evm-signer.js";

/**
 * How the stand-in answers:
 * - `working`: a real facilitator (verifies, settles on the chain);
 * - `failing`: 500 `{ error }` on every route, as a facilitator with a fault;
 * - `refusing`: verifies for real, then refuses every settlement (200 `success: false`), moving nothing;
 * - `hanging`: accepts requests and never answers (until `close`), as a facilitator that stalls.
 */
export type FacilitatorMode = "working" | "failing" | "refusing" | "hanging";

/** The reason a `refusing` stand-in gives for a settlement it refuses. */
export const REFUSED_REASON = "unexpected_settle_error";

/** An x402 facilitator over HTTP on 127.0.0.1 for `PAYMENTS_FACILITATOR_URL`. */
export interface FacilitatorStandIn {
  /** e.g. `http://127.0.0.1:54321` (no trailing slash), for `PAYMENTS_FACILITATOR_URL`. */
  url: string;
  /** The account that submits settlements and pays their gas (funded on the node). */
  settler: Address;
  /** Requests received so far, by route (`verify`, `settle`, `supported`, anything else as `other`). */
  calls: { verify: number; settle: number; supported: number; other: number };
  setMode(mode: FacilitatorMode): void;
  /** Stops listening: the port is closed, so the facilitator is down (connections refused). */
  close(): Promise<void>;
}

const JSON_HEADERS = { "content-type": "application/json" };

/**
 * Starts x402's own facilitator (@x402/core's `x402Facilitator` with @x402/evm's exact EVM scheme, settling
 * through the server's `createSettlerSigner`) behind node:http, with the routes and bodies of the x402 v2
 * HTTP facilitator, as @x402/core's `HTTPFacilitatorClient` calls them: `POST /verify` and `POST /settle`
 * take `{ x402Version, paymentPayload, paymentRequirements }` and answer the VerifyResponse /
 * SettleResponse with 200, a refusal included (`isValid: false`, `success: false`); `GET /supported`
 * answers the supported kinds. A malformed body is 400 `{ error }`. Its settler is a new account given
 * ether through anvil's `anvil_setBalance`, so the chain must be anvil.
 * @example const facilitator = await startFacilitatorStandIn({ rpcUrl: anvil.url, chainId: anvil.chainId });
 */
export async function startFacilitatorStandIn(options: {
  rpcUrl: string;
  chainId: number;
  mode?: FacilitatorMode;
}): Promise<FacilitatorStandIn> {
  const privateKey = generatePrivateKey();
  const settler = privateKeyToAccount(privateKey).address;
  await createTestClient({ mode: "anvil", transport: http(options.rpcUrl) }).setBalance({
    address: settler,
    value: 10n ** 21n,
  });
  const signer = createSettlerSigner({
    privateKey,
    rpcUrl: options.rpcUrl,
    chainId: options.chainId,
    pollingIntervalMs: 20,
  });
  const network = `eip155:${options.chainId}` as const;
  // x402 v2 on this one chain only (registerExactEvmScheme would add v1's named networks too).
  const facilitator = new x402Facilitator().register(network, new ExactEvmScheme(signer));
  let mode: FacilitatorMode = options.mode ?? "working";
  const calls = { verify: 0, settle: 0, supported: 0, other: 0 };

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = `${req.method} ${req.url}`;
    if (route === "POST /verify") calls.verify++;
    else if (route === "POST /settle") calls.settle++;
    else if (route === "GET /supported") calls.supported++;
    else calls.other++;
    const body = await readBody(req);
    if (mode === "hanging") return;
    const send = (status: number, value: unknown): void => {
      res.writeHead(status, JSON_HEADERS).end(JSON.stringify(value));
    };
    if (mode === "failing") return send(500, { error: "facilitator fault" });
    if (route === "GET /supported") return send(200, facilitator.getSupported());
    if (route !== "POST /verify" && route !== "POST /settle") return send(404, { error: "not found" });
    const request = paymentRequest(body);
    if (!request) return send(400, { error: "paymentPayload and paymentRequirements are required" });
    if (route === "POST /verify") {
      return send(200, await facilitator.verify(request.paymentPayload, request.paymentRequirements));
    }
    if (mode === "refusing") {
      return send(200, { success: false, errorReason: REFUSED_REASON, transaction: "", network });
    }
    return send(200, await facilitator.settle(request.paymentPayload, request.paymentRequirements));
  }

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      const message = error instanceof Error ? error.message : String(error);
      res.writeHead(500, JSON_HEADERS).end(JSON.stringify({ error: message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${portOf(server.address())}`,
    settler,
    calls,
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** The body of `/verify` and `/settle`, checked with x402's own schemas; undefined when it is not one. */
function paymentRequest(
  body: string,
): { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const paymentPayload = "paymentPayload" in parsed ? parsed.paymentPayload : undefined;
  const paymentRequirements = "paymentRequirements" in parsed ? parsed.paymentRequirements : undefined;
  if (!isPaymentPayloadV2(paymentPayload) || !isPaymentRequirementsV2(paymentRequirements)) return undefined;
  const accepted = requirementsOf(paymentPayload.accepted);
  const requirements = requirementsOf(paymentRequirements);
  if (!accepted || !requirements) return undefined;
  const { extensions, ...rest } = paymentPayload;
  return {
    paymentPayload: { ...rest, accepted, ...(extensions ? { extensions } : {}) },
    paymentRequirements: requirements,
  };
}

/** x402's schema admits any network string and a missing `extra`; its types want `a:b` and an object. */
function requirementsOf(requirements: PaymentRequirementsV2): PaymentRequirements | undefined {
  const { network, extra } = requirements;
  if (!isNetwork(network)) return undefined;
  return { ...requirements, network, extra: extra ?? {} };
}

function isNetwork(value: string): value is Network {
  return /^[^:]+:.+$/.test(value);
}
