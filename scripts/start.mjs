// `pnpm start` and `pnpm dev` at the root: the API server and the dashboard proxy together, on the
// ports SERVER_PORT (default 3000) and DASHBOARD_PORT (default 3001); the proxy serves the built
// dashboard. Each package also starts alone (`pnpm --filter <package> start`, which honours PORT and
// HOST); this script only builds them once, chooses their ports, data folder and the settings that
// join them (the proxy's KEYPORT_URL and PUBLIC_ORIGIN, the server's SIWE_DOMAINS, each unless set),
// and runs them as one program: output prefixed per service (their JSON log lines printed readably by
// pino-pretty on a terminal, unless LOG_FORMAT=json), Ctrl-C or SIGTERM forwarded to all, exit 0 after
// a clean stop, non-zero when a service dies. The package.json scripts `exec` it, so no shell
// sits between pnpm and this process to fail on Ctrl-C.
// Usage: node scripts/start.mjs [--dev] [--payments [--fund 0x...]...]
//   --dev: reload on change with `tsx watch`, no build, and the dashboard from Vite's dev server on
//     VITE_PORT, default 5173, proxying /api and /trpc
//   --payments (`pnpm start:payments`): first a local chain (anvil) with the test USDC, payments on
//     against it, and 1,000 test USDC minted to each --fund address (docs/payments.md, "Try it locally")
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const POLL_MS = 200;

/** The command line's flags, or exits with a line saying what is wrong. */
async function readFlags() {
  const usage = "usage: node scripts/start.mjs [--dev] [--payments [--fund 0x...]...]";
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        dev: { type: "boolean", default: false },
        payments: { type: "boolean", default: false },
        fund: { type: "string", multiple: true, default: [] },
      },
    }));
  } catch (error) {
    process.stderr.write(`keyport: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
    process.exit(1);
  }
  if (values.fund.length > 0 && !values.payments) {
    process.stderr.write(`keyport: --fund needs --payments (pnpm start:payments --fund 0x...)\n${usage}\n`);
    process.exit(1);
  }
  // viem's rule: 0x and 40 hex characters, and a mixed-case one must carry its EIP-55 checksum, so a
  // mistyped letter is caught here, before the build.
  const { isAddress } = values.fund.length > 0 ? await import("viem") : { isAddress: () => true };
  const badAddress = values.fund.find((address) => !isAddress(address));
  if (badAddress !== undefined) {
    process.stderr.write(
      `keyport: --fund takes a wallet address, 0x and 40 hex characters (got "${badAddress}")\n`,
    );
    process.exit(1);
  }
  return values;
}

const flags = await readFlags();
const DEV = flags.dev;
const PAYMENTS = flags.payments;

/** Reads a port setting, or exits with a line naming it. */
function portSetting(name, fallback) {
  const raw = process.env[name]?.trim() || String(fallback);
  const port = Number(raw);
  if (!/^[0-9]+$/.test(raw) || port < 1 || port > 65_535) {
    process.stderr.write(`keyport: ${name} must be a port number from 1 to 65535 (got "${raw}")\n`);
    process.exit(1);
  }
  return port;
}

/** Whether HOST leaves the services on every interface (unset or a wildcard address). */
const isWildcard = (host) => !host || host === "0.0.0.0" || host === "::";

/**
 * What a browser's `location.host` says for a page on HOST:port: HOST when it names one address (an
 * IPv6 one in brackets), else localhost; no port when it is http's default.
 */
function hostOn(host, port) {
  const name = isWildcard(host) ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return port === 80 ? name : `${name}:${port}`;
}

/** The URL to open for a service on HOST:port (an unset or wildcard HOST is shown as localhost). */
function urlFor(host, port) {
  return `http://${hostOn(host, port)}`;
}

/** Where to probe a service's /healthz: loopback unless HOST names one address. */
function healthUrl(host, port) {
  if (isWildcard(host)) return `http://127.0.0.1:${port}/healthz`;
  return `${urlFor(host, port)}/healthz`;
}

/**
 * How the services' log lines are printed: `pretty` (pino-pretty, one readable line each) or `json`
 * (as the services write them, for a collector). LOG_FORMAT chooses; unset, pretty on a terminal only.
 */
function logFormat() {
  const raw = process.env.LOG_FORMAT?.trim() || (process.stdout.isTTY ? "pretty" : "json");
  if (raw !== "pretty" && raw !== "json") {
    process.stderr.write(`keyport: LOG_FORMAT must be pretty or json (got "${raw}")\n`);
    process.exit(1);
  }
  return raw;
}

/**
 * Turns one output line into the lines to print: a pino JSON line through pino-pretty's
 * `prettyFactory` (time, level, message, then the fields on one line; an error's stack below it),
 * anything else (Vite, a crash trace) as it is.
 */
async function lineFormatter(format) {
  if (format === "json") return (line) => [line];
  const { prettyFactory, isColorSupported } = (await import("pino-pretty")).default;
  const pretty = prettyFactory({
    colorize: process.stdout.isTTY === true && isColorSupported,
    translateTime: "SYS:HH:MM:ss.l",
    // The prefix names the service already.
    ignore: "pid,hostname,service",
    singleLine: true,
  });
  return (line) => (line.startsWith('{"level":') ? pretty(line).replace(/\n$/, "").split("\n") : [line]);
}

const formatLine = await lineFormatter(logFormat());
const serverPort = portSetting("SERVER_PORT", 3000);
const dashboardPort = portSetting("DASHBOARD_PORT", 3001);
const vitePort = DEV ? portSetting("VITE_PORT", 5173) : undefined;
const { PORT, ...passedEnv } = process.env;
if (PORT !== undefined) {
  process.stderr.write(
    "keyport: PORT is ignored here; set SERVER_PORT (API) and DASHBOARD_PORT (dashboard)\n",
  );
}
const host = process.env.HOST?.trim() || undefined;
const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
// Data lives where the user ran `pnpm start` (the repository root), not under packages/server. Under
// --payments, unless DATA_DIR is set, in a folder of its own emptied at each start: its payments, keys
// and sessions belong to a chain that is new each time.
const ownPaymentsData = PAYMENTS && !process.env.DATA_DIR?.trim() && databaseUrl === undefined;
const dataDir = resolve(ROOT, process.env.DATA_DIR?.trim() || (PAYMENTS ? ".data/local-payments" : ".data"));

/** A setting the user gave, else the derived one. */
function setting(name, derived) {
  return process.env[name]?.trim() || derived;
}

// The page's origin: the proxy's own, or Vite's under --dev (it forwards /api and /trpc to the proxy
// keeping the browser's Origin, so the proxy must know Vite's origin as its public one). Its host is the
// one the banner prints (HOST=127.0.0.1 prints and accepts http://127.0.0.1:3001).
const pagePort = vitePort ?? dashboardPort;
const pageHost = hostOn(host, pagePort);
// The proxy reaches the server over loopback unless HOST names one address.
const keyportUrl = healthUrl(host, serverPort).replace(/\/healthz$/, "");
// Only where the dashboard is served: bare `localhost` (port 80) would let a page on port 80 of this
// host ask a wallet for a signature the server accepts.
const siweDomains = [...new Set([pageHost, hostOn(host, dashboardPort)])].join(",");
// Under --payments the wallet signs in on Ethereum's chain or on the local chain it pays on, so it need
// not switch chains between the two (the proxy tells the page the same list).
const chainIds = PAYMENTS ? { SIWE_CHAIN_IDS: setting("SIWE_CHAIN_IDS", "1,31337") } : {};
// The two services never share Redis keys: a REDIS_KEY_PREFIX given here is the server's, and the
// proxy's is the same followed by `proxy:` (unset, each keeps its own default).
const redisKeyPrefix = process.env.REDIS_KEY_PREFIX?.trim() || undefined;

const services = [
  {
    name: "server",
    pkg: "@keyport/server",
    dir: "packages/server",
    port: serverPort,
    env: {
      PORT: String(serverPort),
      DATA_DIR: dataDir,
      SIWE_DOMAINS: setting("SIWE_DOMAINS", siweDomains),
      ...chainIds,
    },
  },
  {
    name: "dashboard",
    pkg: "@keyport/dashboard-proxy",
    dir: "packages/dashboard-proxy",
    port: dashboardPort,
    env: {
      PORT: String(dashboardPort),
      KEYPORT_URL: setting("KEYPORT_URL", keyportUrl),
      PUBLIC_ORIGIN: setting("PUBLIC_ORIGIN", `http://${pageHost}`),
      ...chainIds,
      ...(redisKeyPrefix === undefined ? {} : { REDIS_KEY_PREFIX: `${redisKeyPrefix}proxy:` }),
    },
  },
  ...(vitePort === undefined
    ? []
    : [
        {
          name: "vite",
          dir: "packages/dashboard",
          port: vitePort,
          // Vite itself, run by node as the others are (no pnpm or shell between, so signals arrive once).
          // Its config proxies /api and /trpc to DASHBOARD_PORT.
          args: [
            resolve(ROOT, "packages/dashboard/node_modules/vite/bin/vite.js"),
            "--port",
            String(vitePort),
            "--strictPort",
            "--host",
            host ?? "127.0.0.1",
          ],
          env: { DASHBOARD_PORT: String(dashboardPort) },
        },
      ]),
];

function build() {
  // Under --dev, tsx runs each package from source; only their workspace dependencies need a build.
  const filters = services
    .filter((service) => service.pkg !== undefined)
    .flatMap((service) => ["--filter", `${service.pkg}${DEV ? "^..." : ""}`]);
  // `pnpm start` serves the dashboard's production build; `pnpm dev` serves it from Vite instead.
  if (!DEV) filters.push("--filter", "@keyport/dashboard");
  process.stdout.write(DEV ? "keyport: building workspace dependencies...\n" : "keyport: building...\n");
  const result = spawnSync("pnpm", ["--silent", ...filters, "run", "build"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    shell: process.platform === "win32",
  });
  if (result.status !== 0) {
    process.stderr.write("keyport: the build failed (see above)\n");
    process.exit(1);
  }
}

function command(service) {
  if (service.args !== undefined) return service.args;
  if (!DEV) return ["--enable-source-maps", "dist/main.js"];
  return [fileURLToPath(import.meta.resolve("tsx/cli")), "watch", "src/main.ts"];
}

/** Copies a child's stream line by line, each line formatted and prefixed with the service's name. */
function prefixLines(stream, label, out) {
  createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    out.write(
      formatLine(line)
        .map((part) => `${label} ${part}\n`)
        .join(""),
    );
  });
}

/** The banner's lines about payments: on and where, or off and how to try them. */
function paymentsBanner(serverEnv, chain) {
  const network = serverEnv.PAYMENTS_NETWORK?.trim();
  if (!network) {
    return ["Payments: off (PAYMENTS_NETWORK is unset; `pnpm start:payments` tries them on a local chain)"];
  }
  const lines = [`Payments: on, network ${network}`];
  if (chain === undefined) return lines;
  const { ANVIL_FIRST_ACCOUNT, FUNDED_TOKENS } = localChainModule;
  lines.push(
    `Local chain: ${chain.url} (chain id ${chain.chainId}), test USDC ${chain.token}, payments go to ${chain.payTo}`,
  );
  if (flags.fund.length > 0) {
    lines.push(`Funded with ${FUNDED_TOKENS.toLocaleString("en")} test USDC: ${chain.funded.join(", ")}`);
  } else {
    lines.push(
      `Test account with ${FUNDED_TOKENS.toLocaleString("en")} test USDC: anvil's first default account, whose key is`,
      "public knowledge (never send it anything on a real network); or fund your own wallet with --fund 0x...",
      `  address     ${ANVIL_FIRST_ACCOUNT.address}`,
      `  private key ${ANVIL_FIRST_ACCOUNT.privateKey}`,
    );
  }
  return lines;
}

/** The local chain's module (TypeScript, loaded through tsx), under --payments only. */
let localChainModule;
/** The local chain under --payments, once started. */
let chain;
let chainClosed = false;
let stopping = false;
let failed = false;
let running = [];

// A Ctrl-C reaches this process twice (from the terminal and forwarded by pnpm): only the first is
// passed on. Each service bounds its own drain.
function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const { child } of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

/** Stops the local chain, after the services that use it. */
async function closeChain() {
  if (chain === undefined || chainClosed) return;
  await chain.close();
  chainClosed = true;
}

process.on("SIGINT", () => stopAll("SIGINT"));
process.on("SIGTERM", () => stopAll("SIGTERM"));
// In their own process groups the services (and the local chain) outlive this process unless told:
// never leave them behind.
process.on("exit", () => {
  for (const { child } of running)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  if (chain !== undefined && !chainClosed) {
    try {
      process.kill(chain.pid, "SIGTERM");
    } catch {
      // Gone already.
    }
  }
});

build();
if (PAYMENTS) {
  process.stdout.write("keyport: starting a local chain (anvil) with the test USDC...\n");
  try {
    const { tsImport } = await import("tsx/esm/api");
    localChainModule = await tsImport("./local-chain.ts", import.meta.url);
    const { startLocalChain, ANVIL_FIRST_ACCOUNT } = localChainModule;
    chain = await startLocalChain(flags.fund.length > 0 ? flags.fund : [ANVIL_FIRST_ACCOUNT.address]);
  } catch (error) {
    process.stderr.write(
      `keyport: the local chain did not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
  // Stopped while the chain was starting: nothing else has started.
  if (stopping) {
    await closeChain();
    process.exit(0);
  }
  if (ownPaymentsData) rmSync(dataDir, { recursive: true, force: true });
}

const width = Math.max(...services.map((service) => service.name.length));
const serviceEnv = (service) => ({
  ...passedEnv,
  ...service.env,
  ...(chain !== undefined && service.name === "server" ? chain.env : {}),
});

running = services.map((service) => {
  const child = spawn(process.execPath, command(service), {
    cwd: resolve(ROOT, service.dir),
    env: serviceEnv(service),
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so a terminal's Ctrl-C reaches it once, through stopAll, and not also
    // directly (tsx watch force-kills its server on a second signal).
    detached: process.platform !== "win32",
  });
  const label = `${service.name.padEnd(width)} |`;
  prefixLines(child.stdout, label, process.stdout);
  prefixLines(child.stderr, label, process.stderr);
  const exited = new Promise((resolveExit) => {
    child.once("exit", (code, signal) => {
      if (!stopping) {
        failed = true;
        process.stderr.write(
          `keyport: the ${service.name} stopped (${signal ?? `exit code ${code}`}); stopping the others\n`,
        );
        stopAll("SIGTERM");
      } else if (code !== 0) {
        failed = true;
      }
      resolveExit();
    });
  });
  return { service, child, exited };
});

async function waitHealthy({ service, exited }) {
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done && !stopping) {
    try {
      const response = await fetch(healthUrl(host, service.port), { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((wake) => setTimeout(wake, POLL_MS));
  }
  return false;
}

const healthy = await Promise.all(running.map(waitHealthy));
if (healthy.every(Boolean) && !stopping) {
  const api = urlFor(host, serverPort);
  const serverEnv = serviceEnv(services[0]);
  const data = databaseUrl
    ? ""
    : ownPaymentsData
      ? `Data in ${dataDir} (emptied at each start, as the chain is new). `
      : `Data in ${dataDir}. `;
  process.stdout.write(
    `\nKeyport is running: API ${api} (docs ${api}/docs), dashboard ${urlFor(host, pagePort)}\n` +
      paymentsBanner(serverEnv, chain)
        .map((line) => `${line}\n`)
        .join("") +
      `${data}Press Ctrl-C to stop.\n\n`,
  );
}
await Promise.all(running.map(({ exited }) => exited));
await closeChain();
process.exit(failed ? 1 : 0);
