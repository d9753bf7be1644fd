import { serverMeta } from "@keyport/server/schemas";
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { fetchJson } from "./http";

const metaSchema = z.object({
  coingeckoPlan: z.enum(["demo", "pro", "enterprise"]),
  chat: z.boolean(),
  /** The Keyport server as backends reach it (the proxy's `KEYPORT_PUBLIC_URL`). */
  serverUrl: z.string(),
  /** The address the dashboard is meant to be opened at (`PUBLIC_ORIGIN`); older proxies omit it. */
  publicOrigin: z.string().optional(),
  /** The chains whose sign-in the server accepts (`SIWE_CHAIN_IDS`); older proxies omit it. */
  signInChainIds: z.array(z.number().int().positive()).min(1).default([1]),
  /**
   * The server's top-up token, null while its payments are off (Top up is hidden then); absent when
   * the proxy could not ask the server, or is older: Top up stays and the server's answer speaks.
   */
  payments: serverMeta.shape.payments.optional(),
});

/**
 * What the proxy offers: the CoinGecko plan (which chart ranges exist), whether chat is configured,
 * and the Keyport server's URL for the new-key example.
 */
export type Meta = z.output<typeof metaSchema>;

/**
 * Assumed when `/api/meta` cannot be read: the most restrictive plan, no chat, and the server of
 * `pnpm start` with its default port.
 */
export const FALLBACK_META: Meta = {
  coingeckoPlan: "demo",
  chat: false,
  serverUrl: "http://localhost:3000",
  signInChainIds: [1],
};

async function readMeta(): Promise<Meta> {
  try {
    return await fetchJson("/api/meta", metaSchema);
  } catch {
    return FALLBACK_META;
  }
}

/**
 * The proxy's meta, read once per page load; never fails (falls back to `FALLBACK_META`). `ready` is
 * false until the answer (or the fallback) is in, so a view can wait instead of flashing "no chat".
 */
export function useMeta(): Meta & { ready: boolean } {
  const { data } = useQuery({ queryKey: ["meta"], queryFn: readMeta, staleTime: Number.POSITIVE_INFINITY });
  return { ...(data ?? FALLBACK_META), ready: data !== undefined };
}
