import { createServer, Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import express from "express";
import { H3, toNodeHandler } from "h3";
import { Hono } from "hono";
import { keyport as expressKeyport } from "../../src/express.js";
import { keyport as h3Keyport } from "../../src/h3.js";
import { keyport as honoKeyport, type KeyportEnv } from "../../src/hono.js";
import type { KeyportOptions } from "../../src/middleware-options.js";

/** The frameworks the package has middleware for. */
export const FRAMEWORKS = ["h3", "hono", "express"] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** A backend on 127.0.0.1 whose route answers `{ keyport: <what the middleware handed it> }`. */
export interface Backend {
  /** The protected route's full URL. */
  url: string;
  close(): Promise<void>;
}

/** Options of the middleware without the framework-specific key and address getters. */
export type MiddlewareOptions = Omit<KeyportOptions<never>, "getKey" | "getIp" | "ratelimits"> & {
  /** Each framework's `ratelimits` reads the request's X-Tokens header as the cost of the limit named tokens. */
  tokensFromHeader?: boolean;
};

/** What a route asks of the limit named tokens, from a header's value. */
const tokens = (header: string | null | undefined) =>
  header === null || header === undefined ? [] : [{ name: "tokens", cost: Number(header) }];

/** Starts a real `framework` app with `keyport(options)` in front of one route. */
export async function startBackend(framework: Framework, options: MiddlewareOptions): Promise<Backend> {
  const server = nodeServer(framework, options);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const path = framework === "hono" ? "/api/data" : "/data";
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function nodeServer(framework: Framework, options: MiddlewareOptions): Server {
  switch (framework) {
    case "h3": {
      const app = new H3();
      app.use(
        h3Keyport({
          ...options,
          ratelimits: options.tokensFromHeader
            ? (event) => tokens(event.req.headers.get("x-tokens"))
            : undefined,
        }),
      );
      app.get("/data", (event) => ({ keyport: event.context.keyport }));
      return createServer(toNodeHandler(app));
    }
    case "hono": {
      const app = new Hono<KeyportEnv>();
      app.use(
        "/api/*",
        honoKeyport({
          ...options,
          ratelimits: options.tokensFromHeader ? (c) => tokens(c.req.header("x-tokens")) : undefined,
        }),
      );
      app.get("/api/data", (c) => c.json({ keyport: c.get("keyport") }));
      // An unprotected route beside it: the middleware covers /api/* only.
      app.get("/health", (c) => c.json({ ok: true }));
      // createAdaptorServer builds node:http's Server.
      const server = createAdaptorServer({ fetch: app.fetch });
      if (!(server instanceof Server)) throw new Error("expected a node:http server");
      return server;
    }
    case "express": {
      const app = express();
      app.use(
        expressKeyport({
          ...options,
          ratelimits: options.tokensFromHeader ? (req) => tokens(req.get("x-tokens")) : undefined,
        }),
      );
      app.get("/data", (req, res) => {
        res.json({ keyport: req.keyport });
      });
      return createServer(app);
    }
  }
}
