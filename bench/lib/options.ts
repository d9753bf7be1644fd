/** What one `pnpm bench` invocation runs. */
export interface BenchOptions {
  /** Measured rounds per contestant (each scenario and its baseline alternate inside a round). */
  rounds: number;
  /** Seconds of load per measurement. */
  durationSeconds: number;
  /** Seconds of discarded load before each measurement. */
  warmupSeconds: number;
  /** Concurrent connections of the load generator. */
  connections: number;
  /** Requests per side in the chat time-to-first-byte loop. */
  ttfbRequests: number;
  /** Scenario names (or name prefixes) to run; empty runs everything. */
  only: string[];
  /** Databases the database-backed scenarios run on. */
  databases: Array<"pglite" | "postgres">;
  /** PostgreSQL admin URL; the bench creates and drops its own database through it. */
  postgresUrl: string;
  /** Redis for the proxy's shared-state variant (`proxy-redis-prices`); under its own `keyport:bench:` keys. */
  redisUrl: string;
  /** Writes a V8 CPU profile of every server child into this folder when set. */
  cpuProfDir: string | undefined;
  /** LOG_LEVEL given to the Keyport server and proxy children (their stdout goes to /dev/null). */
  logLevel: string;
  /** The checkout whose packages/server and packages/dashboard-proxy are run (default: this one). */
  tree: string | undefined;
  /** Where the JSON results go; undefined skips writing. */
  resultsPath: string | undefined;
  quick: boolean;
}

const USAGE = `Usage: pnpm bench [-- options]
  --quick               one short round per scenario (smoke run)
  --only <name>         run only scenarios whose name starts with <name> (repeatable, or comma list)
  --rounds <n>          measured rounds (default 3)
  --duration <s>        seconds per measurement (default 5)
  --warmup <s>          seconds of warmup before each measurement (default 1)
  --connections <n>     load generator connections (default 50)
  --db <list>           pglite,postgres (default both)
  --postgres <url>      admin URL (default $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --redis <url>         Redis of the proxy-redis-prices run (default $BENCH_REDIS_URL or redis://127.0.0.1:6379)
  --cpu-prof <dir>      write a .cpuprofile of each server child into <dir>
  --log-level <level>   LOG_LEVEL of the Keyport children (default info)
  --tree <dir>          run packages/* from another checkout (e.g. a candidate fix); default this one
  --out <file>          results JSON path (default bench/results.json; "-" to skip)`;

/**
 * Parses the command line (`pnpm bench -- --quick --only verify`).
 * @throws Error with the usage text on an unknown or malformed option.
 */
export function parseOptions(argv: readonly string[], env: Record<string, string | undefined>): BenchOptions {
  const options: BenchOptions = {
    rounds: 3,
    durationSeconds: 5,
    warmupSeconds: 1,
    connections: 50,
    ttfbRequests: 400,
    only: [],
    databases: ["pglite", "postgres"],
    postgresUrl: env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    redisUrl: env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
    cpuProfDir: undefined,
    logLevel: "info",
    tree: undefined,
    resultsPath: "bench/results.json",
    quick: false,
  };
  const args = argv.filter((arg) => arg !== "--");
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    switch (arg) {
      case "--quick":
        options.quick = true;
        break;
      case "--only":
        options.only.push(
          ...value()
            .split(",")
            .filter((name) => name.length > 0),
        );
        break;
      case "--rounds":
        options.rounds = positive(arg, value());
        break;
      case "--duration":
        options.durationSeconds = positive(arg, value());
        break;
      case "--warmup":
        options.warmupSeconds = Number(value());
        break;
      case "--connections":
        options.connections = positive(arg, value());
        break;
      case "--db":
        options.databases = value()
          .split(",")
          .map((name) => {
            if (name !== "pglite" && name !== "postgres") throw new Error(`--db: unknown database ${name}`);
            return name;
          });
        break;
      case "--postgres":
        options.postgresUrl = value();
        break;
      case "--redis":
        options.redisUrl = value();
        break;
      case "--cpu-prof":
        options.cpuProfDir = value();
        break;
      case "--log-level":
        options.logLevel = value();
        break;
      case "--tree":
        options.tree = value();
        break;
      case "--out": {
        const out = value();
        options.resultsPath = out === "-" ? undefined : out;
        break;
      }
      case "--help":
      case "-h":
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  if (options.quick) {
    options.rounds = 1;
    options.durationSeconds = Math.min(options.durationSeconds, 1);
    options.warmupSeconds = Math.min(options.warmupSeconds, 0.5);
    options.ttfbRequests = Math.min(options.ttfbRequests, 50);
  }
  return options;
}

function positive(name: string | undefined, raw: string): number {
  const parsed = Number(raw);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number`);
  return parsed;
}

/** True when `name` was selected by `--only` (prefix match), or nothing was. */
export function isSelected(options: Pick<BenchOptions, "only">, name: string): boolean {
  return options.only.length === 0 || options.only.some((prefix) => name.startsWith(prefix));
}
