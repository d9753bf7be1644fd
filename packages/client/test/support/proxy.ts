import { createApp, parseEnv } from "@keyport/dashboard-proxy";
import { serve } from "h3";

/** The dashboard proxy running in-process on 127.0.0.1. */
export interface RunningProxy {
  /** e.g. `http://127.0.0.1:54322` (no trailing slash) */
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the real proxy app with `env` (logs silenced). */
export async function startProxy(env: Record<string, string>): Promise<RunningProxy> {
  const app = createApp(parseEnv({ LOG_LEVEL: "silent", ...env }));
  const server = serve(app, { port: 0, hostname: "127.0.0.1", silent: true, gracefulShutdown: false });
  await server.ready();
  const baseUrl = (server.url ?? "").replace(/\/$/, "");
  if (baseUrl === "") throw new Error("the proxy did not report its URL");
  return { baseUrl, close: () => server.close(true) };
}
