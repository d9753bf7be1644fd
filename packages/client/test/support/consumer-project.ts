// The files of a project outside the workspace that uses the packed client, as a user would write them.

/**
 * Its package.json: the tarball, and tRPC at the floor of the client's peer range (11.22.1, the workspace's
 * version). zod is not listed: npm (7+) installs it as the client's peer, which the test checks.
 */
export function consumerPackageJson(tarball: string): object {
  return {
    name: "keyport-consumer",
    private: true,
    type: "module",
    dependencies: {
      "@keyport/client": `file:${tarball}`,
      "@trpc/client": "11.22.1",
      "@trpc/server": "11.22.1",
      viem: "2.57.20",
    },
    // The repository's compiler version, so the peer of @trpc/server resolves to it, not a newer one.
    devDependencies: { typescript: "5.9.3" },
  };
}

/**
 * A strict tsconfig with skipLibCheck off, so the shipped .d.ts is checked too, and no ambient types (a
 * browser project's view: no @types/node).
 */
export function consumerTsconfig(file: string): object {
  return {
    compilerOptions: {
      target: "ES2022",
      // tRPC's declarations use Disposable (TypeScript 5.2+ lib), which skipLibCheck: false surfaces.
      lib: ["ES2023", "ESNext.Disposable", "DOM", "DOM.Iterable"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      types: [],
      outDir: "out",
    },
    include: [file],
  };
}

/** A script that signs in, creates, lists and verifies a key, and reads failures; prints one JSON line. */
export function mainScript(trpcUrl: string): string {
  return `import {
  type ApiKey,
  type AppRouter,
  createDashboardClient,
  createKeyportClient,
  keyportLinks,
  signIn,
  toKeyportError,
} from "@keyport/client";
import { createTRPCClient, TRPCClientError } from "@trpc/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const url = ${JSON.stringify(trpcUrl)};
const siwe = { chainId: 1, domain: "localhost", uri: "http://localhost/login" };
const account = privateKeyToAccount(generatePrivateKey());
const keyport = createKeyportClient({ url });
await keyport.signIn({ account }, siwe);
const created = await keyport.keys.create.mutate({ name: "consumer", rateLimit: { limit: 5, windowSeconds: 60 } });
const page = await keyport.keys.list.query({ wallet: account.address });
const first: ApiKey | undefined = page.keys[0];
const createdAt: Date = created.apiKey.createdAt;

// The parts, with tRPC's own client: a standalone sign-in, then a client that holds the token.
const other = privateKeyToAccount(generatePrivateKey());
const { token } = await signIn(createTRPCClient<AppRouter>({ links: keyportLinks({ url }) }), { account: other }, siwe);
const byLinks = createTRPCClient<AppRouter>({ links: keyportLinks({ url, token }) });
const otherKey = await byLinks.keys.create.mutate({ name: "by-links" });

async function failure(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "none";
  } catch (error) {
    const { code, status } = toKeyportError(error);
    return \`\${error instanceof TRPCClientError ? "TRPCClientError" : "other"} \${code} \${status}\`;
  }
}
// Checked by the bundled proxy schema before any request: the port is closed on purpose.
const dashboard = createDashboardClient({ baseUrl: "http://127.0.0.1:1" });

console.log(JSON.stringify({
  wallet: account.address,
  created: created.apiKey.id,
  listed: page.keys.map((key) => key.id),
  firstName: first?.name,
  createdAtIsDate: createdAt instanceof Date,
  otherWallet: otherKey.apiKey.wallet === other.address,
  verified: (await keyport.keys.verify.mutate({ key: created.key })).code,
  notFound: await failure(() => keyport.keys.revoke.mutate({ id: "key_0000000000000000" })),
  badCoin: await failure(() => dashboard.prices.chart("../etc", { vs_currency: "usd", days: "7" })),
}));
`;
}

/** Two wrong calls, on lines 4 and 6, that must not compile. */
export const WRONG_SCRIPT = `import { createDashboardClient, createKeyportClient } from "@keyport/client";

const keyport = createKeyportClient({ url: "http://127.0.0.1:1/trpc" });
await keyport.keys.create.mutate({ name: 42 });
const dashboard = createDashboardClient({ baseUrl: "" });
await dashboard.prices.chart("bitcoin", { vs_currency: "usd", days: "7", interval: "weekly" });
`;
