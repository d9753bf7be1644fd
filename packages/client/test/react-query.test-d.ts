import { QueryClient, useMutation, useQuery } from "@tanstack/react-query";
import { createTRPCClient, type TRPCClientErrorLike } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { describe, expectTypeOf, it } from "vitest";
import {
  type AppRouter,
  createKeyportClient,
  type KeyportError,
  keyportLinks,
  type RouterInputs,
  type RouterOutputs,
  toKeyportError,
} from "../src/index.js";

// What a React page does with the client: TanStack Query's options proxy over tRPC's own client. Type-only:
// vitest type-checks this file and never runs it (hooks outside a component are fine here).

const queryClient = new QueryClient();
const wallet = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

describe("the options proxy of @trpc/tanstack-react-query over the Keyport client", () => {
  const trpc = createTRPCOptionsProxy<AppRouter>({
    client: createTRPCClient<AppRouter>({ links: keyportLinks({ url: "/trpc" }) }),
    queryClient,
  });

  it("types a query's data from the router and its error as tRPC's", () => {
    const options = trpc.keys.list.queryOptions({ wallet });
    const result = useQuery(options);
    expectTypeOf(result.data).toEqualTypeOf<RouterOutputs["keys"]["list"] | undefined>();
    expectTypeOf(result.error).toEqualTypeOf<TRPCClientErrorLike<AppRouter> | null>();
    expectTypeOf(queryClient.fetchQuery(options)).resolves.toEqualTypeOf<RouterOutputs["keys"]["list"]>();
    expectTypeOf(queryClient.getQueryData(options.queryKey)).toEqualTypeOf<
      RouterOutputs["keys"]["list"] | undefined
    >();
    expectTypeOf(result.error?.data?.httpStatus).toEqualTypeOf<number | undefined>();
    // The hooks' error reads as a KeyportError through toKeyportError.
    expectTypeOf(toKeyportError(result.error)).toEqualTypeOf<KeyportError>();
  });

  it("types the list's search, sort and total", () => {
    const options = trpc.keys.list.queryOptions({ wallet, q: "pay", sort: "lastUsed", order: "asc" });
    const result = useQuery(options);
    expectTypeOf(result.data?.total).toEqualTypeOf<number | undefined>();
    expectTypeOf<RouterInputs["keys"]["list"]["sort"]>().toEqualTypeOf<
      "created" | "lastUsed" | "name" | undefined
    >();
    expectTypeOf<RouterInputs["keys"]["list"]["order"]>().toEqualTypeOf<"asc" | "desc" | undefined>();
  });

  it("types a mutation's variables, data and error", () => {
    const create = useMutation(trpc.keys.create.mutationOptions());
    expectTypeOf(create.mutate).parameter(0).toEqualTypeOf<RouterInputs["keys"]["create"]>();
    expectTypeOf(create.data).toEqualTypeOf<RouterOutputs["keys"]["create"] | undefined>();
    expectTypeOf(create.error).toEqualTypeOf<TRPCClientErrorLike<AppRouter> | null>();
  });

  it("makes a wrong input or a wrong kind of call a type error", () => {
    // @ts-expect-error wallet is a string
    trpc.keys.list.queryOptions({ wallet: 42 });
    // @ts-expect-error list needs the wallet
    trpc.keys.list.queryOptions({});
    // @ts-expect-error status is active, revoked, expired or all
    trpc.keys.list.queryOptions({ wallet, status: "deleted" });
    // @ts-expect-error sort is created, lastUsed or name
    trpc.keys.list.queryOptions({ wallet, sort: "size" });
    // @ts-expect-error order is asc or desc
    trpc.keys.list.queryOptions({ wallet, order: "up" });
    // @ts-expect-error q is a string
    trpc.keys.list.queryOptions({ wallet, q: 1 });
    // @ts-expect-error create is a mutation, not a query
    trpc.keys.create.queryOptions({ name: "x" });
    // @ts-expect-error there is no such procedure
    trpc.keys.remove.mutationOptions();
    const create = useMutation(trpc.keys.create.mutationOptions());
    // @ts-expect-error name is a string
    create.mutate({ name: 42 });
  });

  it("accepts createKeyportClient's client as well: it is a plain TRPCClient", () => {
    const keyport = createKeyportClient({ url: "http://localhost:3000/trpc" });
    const proxy = createTRPCOptionsProxy<AppRouter>({ client: keyport, queryClient });
    expectTypeOf(queryClient.fetchQuery(proxy.usage.get.queryOptions({ wallet }))).resolves.toEqualTypeOf<
      RouterOutputs["usage"]["get"]
    >();
  });
});
