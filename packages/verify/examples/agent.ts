// An agent holding a Keyport key calls a backend protected by keyport({ topUp }); out of credits, its
// one fetch answers the backend's 402 by paying USDC from its own wallet, and gets the answer.
//   AGENT_PRIVATE_KEY=0x... API_KEY=kp_... API_URL=http://localhost:8787/api/data TOKEN=0x... npx tsx agent.ts
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { isAddress, isHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const { AGENT_PRIVATE_KEY = "", API_KEY = "", API_URL = "", TOKEN = "" } = process.env;
if (!isHex(AGENT_PRIVATE_KEY)) throw new Error("AGENT_PRIVATE_KEY must be the agent wallet's 0x key");
if (!isAddress(TOKEN))
  throw new Error("TOKEN must be the test USDC's address (pnpm start:payments prints it)");

const client = new x402Client();
registerExactEvmScheme(client, { signer: privateKeyToAccount(AGENT_PRIVATE_KEY) });
// x402 pays only the tokens it knows (USDC on Base and other chains), at most $1 a payment. The local
// chain's test USDC is not one of them: allow it, up to 5 tokens (6 decimals) a payment.
client.setSpendControls({
  allowedAssets: [{ network: "eip155:31337", asset: TOKEN, maxAmountPerPayment: "5000000" }],
});
const paidFetch = wrapFetchWithPayment(fetch, client);

const answer = await paidFetch(API_URL, { headers: { "x-api-key": API_KEY } });
console.log(answer.status, await answer.text());
