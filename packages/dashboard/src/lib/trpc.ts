import type { AppRouter } from "@keyport/server";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import { queryClient } from "./query-client";

/**
 * The plain tRPC client over the proxy's same-origin `/trpc`: the proxy adds the session from the
 * httpOnly cookie, so the page never holds a token. `maxItems` matches the server's batch limit.
 */
export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: "/trpc",
      transformer: superjson,
      maxItems: 10,
      fetch: (input, init) => fetch(input, { ...init, credentials: "same-origin" }),
    }),
  ],
});

/** TanStack Query options for every procedure: `useQuery(trpc.keys.list.queryOptions(input))`. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
