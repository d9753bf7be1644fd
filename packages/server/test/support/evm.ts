import { readFileSync } from "node:fs";
import ganache from "ganache";
import solc from "solc";
import {
  type Address,
  createPublicClient,
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

/** The chain id the in-process node reports (ganache's default). */
export const EVM_CHAIN_ID = 1337;

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
 * Compiles test/support/erc1271-wallet.sol with solc-js for the Shanghai EVM (what ganache 7.9 runs).
 * Takes a second or so: call once per file.
 */
export function compileWalletContracts(): { wallet: Hex; factory: Hex } {
  const source = readFileSync(new URL("./erc1271-wallet.sol", import.meta.url), "utf8");
  const input = {
    language: "Solidity",
    sources: { "erc1271-wallet.sol": { content: source } },
    settings: { evmVersion: "shanghai", outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
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

/** A ganache node on a loopback port, and a funded account that deploys contracts on it. */
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
 * Starts ganache 7.9 (chain id 1337, instant mining) on 127.0.0.1, compiles the wallet contracts and
 * deploys the factory. Deployments pass an explicit gas limit: viem's estimate is refused by ganache's
 * 90,000 default for a plain send.
 */
export async function startEvm(): Promise<Evm> {
  const deployerKey = generatePrivateKey();
  const deployer = privateKeyToAccount(deployerKey);
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: EVM_CHAIN_ID, hardfork: "shanghai" },
    // 1,000 ether for the deployer, nothing else.
    wallet: { accounts: [{ secretKey: deployerKey, balance: "0x3635c9adc5dea00000" }] },
  });
  await server.listen(0, "127.0.0.1");
  const address = server.address();
  const url = `http://127.0.0.1:${address.port}`;
  const transport = http(url, { retryCount: 0 });
  const chain = {
    id: EVM_CHAIN_ID,
    name: "ganache",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  } as const;
  const walletClient = createWalletClient({ account: deployer, chain, transport });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  const { wallet, factory } = compileWalletContracts();

  /** Sends a contract creation (`data` is the init code) and returns the new contract's address. */
  async function deploy(data: Hex): Promise<Address> {
    const hash = await walletClient.sendTransaction({ data, gas: 3_000_000n });
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
    close: () => server.close(),
  };
}
