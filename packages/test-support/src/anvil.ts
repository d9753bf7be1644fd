import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

/** The chain id every node `startAnvil` starts reports. */
export const ANVIL_CHAIN_ID = 31337;

/** A local Ethereum node (Foundry's anvil) in a child process of its own, on a loopback port. */
export interface Anvil {
  /** JSON-RPC over HTTP, e.g. `http://127.0.0.1:41234`, for RPC_URL. */
  url: string;
  chainId: typeof ANVIL_CHAIN_ID;
  /** How long the node took from spawn to its first JSON-RPC answer. */
  startedInMs: number;
  /** The node's process id. */
  pid: number;
  /** Stops the process and waits for it to exit. */
  close(): Promise<void>;
}

/** Options of {@link startAnvil}. */
export interface StartAnvilOptions {
  /** How long to wait for its first answer (30 s). */
  timeoutMs?: number;
  /**
   * In a process group of its own, so a terminal's Ctrl-C does not stop it before the processes that
   * use it: whoever started it stops it last, with `close` (`pnpm start:payments`).
   */
  detached?: boolean;
}

/**
 * Starts anvil (chain id 31337, a block per transaction, its ten funded dev accounts) on a free
 * 127.0.0.1 port and waits until it answers `eth_chainId`. Its binary ships in the npm package of the
 * platform (`@foundry-rs/anvil-linux-amd64` and siblings), so no Foundry install is needed.
 * @example const anvil = await startAnvil(); try { ... anvil.url ... } finally { await anvil.close(); }
 */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<Anvil> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const started = performance.now();
  const port = await freePort();
  const child = spawn(
    anvilBinary(),
    ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(ANVIL_CHAIN_ID), "--quiet"],
    { stdio: ["ignore", "ignore", "pipe"], detached: options.detached === true },
  );
  let stderr = "";
  // A binary that cannot be run: no pid, and an `error` event that must not go unheard.
  child.once("error", (error) => {
    stderr += error.message;
  });
  const { pid } = child;
  if (pid === undefined) throw new Error(`anvil could not be started: ${anvilBinary()}`);
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let exitedEarly = false;
  void exited.then(() => {
    exitedEarly = true;
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  while (!(await answersChainId(url))) {
    if (exitedEarly) throw new Error(`anvil exited before it answered: ${stderr.trim()}`);
    if (performance.now() - started > timeoutMs) {
      await close();
      throw new Error(`anvil did not answer on ${url} within ${timeoutMs} ms: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { url, chainId: ANVIL_CHAIN_ID, startedInMs: Math.round(performance.now() - started), pid, close };
}

/** The binary of this platform's package, found beside @foundry-rs/anvil (which lists them all). */
function anvilBinary(): string {
  const cpu = process.arch === "x64" ? "amd64" : process.arch;
  const fromAnvil = createRequire(createRequire(import.meta.url).resolve("@foundry-rs/anvil/package.json"));
  const manifest = fromAnvil.resolve(`@foundry-rs/anvil-${process.platform}-${cpu}/package.json`);
  return join(dirname(manifest), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
}

async function answersChainId(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** A loopback port free a moment ago (bound, then released) for anvil's `--port`. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
