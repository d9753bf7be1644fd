import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Connector } from "wagmi";
import { useMeta } from "../../lib/meta";
import { signIn, signOut } from "./sign-in";

/** The sign-in flow as a mutation: `mutate(connector)`, with `isPending` and `error` for the UI. */
export function useSignIn() {
  const queryClient = useQueryClient();
  const { signInChainIds } = useMeta();
  return useMutation({
    mutationFn: (connector: Connector) => signIn(connector, queryClient, signInChainIds),
  });
}

/** Sign-out as a mutation. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => signOut(queryClient) });
}
