import type { RouterOutputs } from "@keyport/server";
import { type Address, getAddress } from "viem";
import type { Connector } from "wagmi";
import { connect, getConnection, signTypedData } from "wagmi/actions";
import { trpcClient } from "../../lib/trpc";
import { wagmiConfig } from "../../lib/wagmi";
import {
  authorizationTypedData,
  encodePayment,
  evmChainId,
  type PaymentRequirement,
  transferAuthorization,
} from "./payment";
import { readTokenBalance } from "./token-balance";
import { InsufficientBalanceError, WrongNetworkError } from "./top-up-errors";

/** Where a top-up is: the wallet signing, Keyport settling on the chain, or done. */
export type TopUpStep = "signing" | "settling" | "confirmed";

/** What `keys.topUp` answers: the key as it is now and the top-up. */
export type TopUpResult = RouterOutputs["keys"]["topUp"];

/** One top-up to make: the key, the amount in whole USDC and the quote's requirement for it. */
export interface TopUpOrder {
  keyId: string;
  amount: string;
  requirement: PaymentRequirement;
}

interface Eip1193 {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
}

function isEip1193(value: unknown): value is Eip1193 {
  return (
    typeof value === "object" && value !== null && "request" in value && typeof value.request === "function"
  );
}

/** The wallet the session signed in with, connected again if the page lost the connection. */
async function payingWallet(): Promise<{ connector: Connector; address: Address }> {
  const current = getConnection(wagmiConfig);
  if (current.status === "connected" && current.address !== undefined) {
    return { connector: current.connector, address: current.address };
  }
  const [connector] = wagmiConfig.connectors;
  if (connector === undefined) throw new Error("No wallet found in this browser.");
  const connected = await connect(wagmiConfig, { connector });
  const [address] = connected.accounts;
  if (address === undefined) throw new Error("The wallet shared no account.");
  return { connector, address };
}

/**
 * Tops up a key (docs/dashboard.md, Top up): checks the wallet's chain against the payment's network
 * (`WrongNetworkError`) and its USDC balance (`InsufficientBalanceError`) before asking for anything,
 * has the wallet sign the EIP-3009 authorization (`signTypedData`), then sends it with `keys.topUp`,
 * which answers once the payment is settled and credited. `onStep` hears each step as it starts.
 */
export async function runTopUp(order: TopUpOrder, onStep: (step: TopUpStep) => void): Promise<TopUpResult> {
  const { requirement } = order;
  const target = evmChainId(requirement.network);
  if (target === null) throw new Error(`Payments on ${requirement.network} cannot be made from this page.`);
  const { connector, address } = await payingWallet();
  const chainId = await connector.getChainId();
  if (chainId !== target) throw new WrongNetworkError(chainId, target);

  const provider = await connector.getProvider();
  if (isEip1193(provider)) {
    const held = await readTokenBalance(provider, getAddress(requirement.asset), address);
    if (held !== null && held.balance < BigInt(requirement.amount)) {
      throw new InsufficientBalanceError(held.text, order.amount);
    }
  }

  onStep("signing");
  const authorization = transferAuthorization(requirement, address);
  const signature = await signTypedData(wagmiConfig, {
    ...authorizationTypedData(requirement, authorization),
    account: address,
    connector,
  });
  onStep("settling");
  const payment = encodePayment(requirement, authorization, signature);
  const result = await trpcClient.keys.topUp.mutate({ id: order.keyId, amount: order.amount, payment });
  onStep("confirmed");
  return result;
}
