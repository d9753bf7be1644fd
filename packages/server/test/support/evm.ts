import { readFileSync } from "node:fs";
import { ANVIL_CHAIN_ID, startAnvil } from "@keyport/test-support/anvil";
import solc from "solc";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  isHex,
  keccak256,
  parseAbi,
  serializeErc6492Signature,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { z } from "zod";

/** The chain id the local node reports (anvil's). */
export const EVM_CHAIN_ID = ANVIL_CHAIN_ID;

const compiledContract = z.object({
  evm: z.object({ bytecode: z.object({ object: z.string() }) }),
});
const solcOutput = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z.record(z.string(), z.record(z.string(), compiledContract)).optional(),
});

// The contracts' interfaces, as erc1271-wallet.sol declares them (solc gives only the bytecode here).
const WALLET_ABI = parseAbi(["constructor(address walletOwner)"]);
const FACTORY_ABI = parseAbi(["function deploy(address walletOwner, bytes32 salt) returns (address)"]);

/**
 * Compiles test/support/erc1271-wallet.sol with solc-js for its default EVM, which anvil runs.
 * Takes a second or so: call once per file.
 */
export function compileWalletContracts(): { wallet: Hex; factory: Hex } {
  const source = readFileSync(new URL("./erc1271-wallet.sol", import.meta.url), "utf8");
  const input = {
    language: "Solidity",
    sources: { "erc1271-wallet.sol": { content: source } },
    settings: { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
  };
  const output = solcOutput.parse(JSON.parse(solc.compile(JSON.stringify(input))));
  const errors = (output.errors ?? []).filter((error) => error.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join("\n"));
  const bytecodeOf = (name: string): Hex => {
    const contract = output.contracts?.["erc1271-wallet.sol"]?.[name];
    const bytecode = `0x${contract?.evm.bytecode.object ?? ""}`;
    if (!contract || !isHex(bytecode) || bytecode === "0x") throw new Error(`solc produced no ${name}`);
    return bytecode;
  };
  return { wallet: bytecodeOf("Erc1271Wallet"), factory: bytecodeOf("Erc1271WalletFactory") };
}

/** An anvil node on a loopback port, and a funded account that deploys contracts on it. */
export interface Evm {
  /** The node's JSON-RPC URL, for RPC_URL. */
  url: string;
  /** Deploys an ERC-1271 wallet owned by `owner`; returns its address. */
  deployWallet(owner: Address): Promise<Address>;
  /**
   * A wallet for `owner` that is not deployed (yet): its CREATE2 address, and how to wrap an owner's
   * signature as ERC-6492 so a verifier can deploy it in a simulation.
   */
  counterfactualWallet(owner: Address): Promise<{ address: Address; wrap(signature: Hex): Hex }>;
  /** The code at `address` ("0x" or undefined when there is none). */
  codeAt(address: Address): Promise<Hex | undefined>;
  close(): Promise<void>;
}

/**
 * Starts anvil (test-support's startAnvil: chain id 31337, a block per transaction) on 127.0.0.1,
 * funds a new deployer account, compiles the wallet contracts and deploys the factory.
 */
export async function startEvm(): Promise<Evm> {
  const deployer = privateKeyToAccount(generatePrivateKey());
  const { wallet, factory } = compileWalletContracts();
  const anvil = await startAnvil();
  const url = anvil.url;
  const transport = http(url, { retryCount: 0 });
  const chain = {
    id: EVM_CHAIN_ID,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  } as const;
  // 1,000 ether for the deployer.
  await createTestClient({ mode: "anvil", chain, transport }).setBalance({
    address: deployer.address,
    value: 10n ** 21n,
  });
  const walletClient = createWalletClient({ account: deployer, chain, transport });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 });

  /** Sends a contract creation (`data` is the init code) and returns the new contract's address. */
  async function deploy(data: Hex): Promise<Address> {
    const hash = await walletClient.sendTransaction({ data });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error("deployment reverted");
    return getAddress(receipt.contractAddress);
  }
  const walletInitCode = (owner: Address) =>
    encodeDeployData({ abi: WALLET_ABI, bytecode: wallet, args: [owner] });

  const factoryAddress = await deploy(factory);
  return {
    url,
    deployWallet: (owner) => deploy(walletInitCode(owner)),
    async counterfactualWallet(owner) {
      const salt = keccak256(owner);
      const walletAddress = getContractAddress({
        opcode: "CREATE2",
        from: factoryAddress,
        salt,
        bytecode: walletInitCode(owner),
      });
      const data = encodeFunctionData({ abi: FACTORY_ABI, functionName: "deploy", args: [owner, salt] });
      return {
        address: walletAddress,
        wrap: (signature) => serializeErc6492Signature({ address: factoryAddress, data, signature }),
      };
    },
    codeAt: (at) => publicClient.getCode({ address: at }),
    close: () => anvil.close(),
  };
}
