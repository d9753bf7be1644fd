import type { IncomingMessage, ServerResponse } from "node:http";
import { REQUEST_ID_HEADER } from "@keyport/errors";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import type { SuperJSONResult } from "superjson";
import type { z } from "zod";
import { type Context, createContext, type Services } from "../context.js";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db/unavailable.js";
import { type Deadline, REQUEST_DEADLINE_MS, raceDeadline } from "../deadline.js";
import type { AppRouter } from "../routers/_app.js";
import { type Verification, verifyKeyInput } from "../schemas/verification.js";
import { createCallerFactory, formatTrpcError } from "../trpc.js";
import { deserializeOwnedInput, transformer } from "../trpc-transformer.js";
import { MAX_BODY_BYTES, readJsonBodyBytes } from "./body.js";
import { createJsonMemo } from "./json-memo.js";
import { logTrpcError, MAX_BATCH_SIZE } from "./trpc-handler.js";

type VerifyInput = z.input<typeof verifyKeyInput>;

/**
 * One call's item of tRPC's answer, `{ result: { data } }` with the data in superjson, as JSON
 * text: a shared answer (NOT_FOUND, a plain key's VALID) is serialised once.
 */
const resultJson = createJsonMemo<Verification>((data) =>
  JSON.stringify({ result: { data: transformer.output.serialize(data) } }),
);

/** The one procedure the fast path answers. */
const VERIFY_PATH = "keys.verify";
const SINGLE_URL = `/trpc/${VERIFY_PATH}`;

/** A request the fast path takes: how many `keys.verify` calls, and whether it is a batch. */
interface VerifyCalls {
  count: number;
  batch: boolean;
}

/**
 * `POST /trpc/keys.verify` and `POST /trpc/keys.verify,…?batch=1` (only keys.verify, at most
 * `MAX_BATCH_SIZE`), a JSON body of a declared length within `MAX_BODY_BYTES`, no streaming accept.
 * Anything else (GET, other procedures, other queries or content types, chunked bodies) is null.
 */
function matchVerifyCalls(req: IncomingMessage): VerifyCalls | null {
  if (req.method !== "POST") return null;
  const { headers } = req;
  if (headers["content-type"] !== "application/json") return null;
  if (headers["transfer-encoding"] !== undefined || headers["trpc-accept"] !== undefined) return null;
  if (headers.accept?.includes("jsonl")) return null;
  const length = headers["content-length"];
  if (length === undefined || !(Number(length) <= MAX_BODY_BYTES)) return null;
  const url = req.url ?? "";
  if (url === SINGLE_URL) return { count: 1, batch: false };
  const prefix = url.length - "?batch=1".length;
  if (!url.startsWith(SINGLE_URL) || !url.endsWith("?batch=1")) return null;
  const paths = url.slice("/trpc/".length, prefix).split(",");
  if (paths.length > MAX_BATCH_SIZE || paths.some((path) => path !== VERIFY_PATH)) return null;
  return { count: paths.length, batch: true };
}

/**
 * The whole body as text, or null when the client left first. `matchVerifyCalls` has checked the
 * type and declared length, so leaving is the one error `readJsonBodyBytes` can give here.
 */
function readBodyText(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    readJsonBodyBytes(req, (error, body) => resolve(error === undefined ? (body?.toString() ?? "") : null));
  });
}

/**
 * The inputs tRPC would hand each call (superjson-decoded by the same transformer), or null when
 * decoding fails: tRPC then fails every call of the request with one error, which its own
 * handler answers.
 */
function decodeInputs(text: string, calls: VerifyCalls): unknown[] | null {
  try {
    const body: unknown = JSON.parse(text);
    // The body was parsed here and nothing else holds it: deserialised in place.
    if (!calls.batch) return [deserializeOwnedInput(asEnvelope(body))];
    if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
    const inputs: unknown[] = [];
    for (let index = 0; index < calls.count; index++) {
      const input: unknown = Reflect.get(body, index);
      inputs.push(input === undefined ? undefined : deserializeOwnedInput(asEnvelope(input)));
    }
    return inputs;
  } catch {
    return null;
  }
}

/** tRPC hands the transformer whatever the body holds, unchecked; superjson copes with any value. */
function asEnvelope(value: unknown): SuperJSONResult {
  return value as SuperJSONResult;
}

/** A request body node has read already, handed to tRPC as its node adapter documents (`req.body`). */
type ReadRequest = IncomingMessage & { body?: unknown };

/**
 * The tRPC answer to keys.verify, single and batched, without tRPC's fetch `Request`/`Response`:
 * a valid input is verified as the procedure does it, any other goes to the procedure through
 * `createCaller` (see `callOne`); the answer is tRPC's documented wire format (`{ result: { data } }` / `{ error }`, superjson, 207
 * when a batch's statuses differ) with the router's own error formatter. Returns null, having
 * touched nothing, for a request it does not take, else a promise settled once it answered (or the
 * client left); a body that does not decode is handed to `fallback` (tRPC's handler) as read.
 * See docs/decisions.md, "tRPC verify fast path".
 * @example const verify = createTrpcVerify(appRouter, services, trpc); if (verify(req, res) === null) trpc(req, res)
 */
export function createTrpcVerify(
  router: AppRouter,
  services: Services,
  fallback: (req: IncomingMessage, res: ServerResponse) => void,
) {
  const createCaller = createCallerFactory(router);

  const { verifier } = services.verification;

  /**
   * One call's item of the answer, and the status tRPC derives from it. An input the procedure's
   * schema accepts is verified as the procedure does it (its one line: `verifier.verify` under
   * the request deadline, publicProcedure's 503 for an unavailable database), as
   * `POST /api-keys/verify` does; any other input goes through `createCaller`, so the procedure
   * refuses it itself. Running a valid input through the caller as well costs tRPC's middleware
   * chain (a copy of the call options and the context per middleware): 40 of a call's 100 µs of
   * CPU, measured (docs/benchmarks.md).
   */
  async function callOne(
    input: unknown,
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
  ): Promise<AnswerItem> {
    const parsed = verifyKeyInput.safeParse(input);
    if (!parsed.success) return callProcedure(input, createContext(services, req, res, requestId));
    try {
      const deadline: Deadline = { aborted: false };
      const answer = verifier.verify(parsed.data.key, parsed.data, deadline);
      // A cached key answers at once; one that waits on the database or Redis has a deadline.
      const data = "then" in answer ? await raceDeadline(answer, REQUEST_DEADLINE_MS, deadline) : answer;
      return { status: 200, json: resultJson(data) };
    } catch (cause) {
      return errorItem(procedureError(cause), { requestId });
    }
  }

  async function callProcedure(input: unknown, ctx: Context): Promise<AnswerItem> {
    try {
      // The procedure's input schema checks it, as tRPC's handler hands it over unchecked.
      const data = await createCaller(ctx).keys.verify(input as VerifyInput);
      return { status: 200, json: resultJson(data) };
    } catch (cause) {
      return errorItem(cause, ctx);
    }
  }

  function errorItem(cause: unknown, ctx: Pick<Context, "requestId">): AnswerItem {
    const error =
      cause instanceof TRPCError ? cause : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause });
    logTrpcError(services, error, VERIFY_PATH, ctx.requestId);
    const shape = {
      message: error.message,
      code: TRPC_ERROR_CODES_BY_KEY[error.code],
      data: { code: error.code, httpStatus: getHTTPStatusCodeFromError(error), path: VERIFY_PATH },
    };
    const formatted = formatTrpcError({ shape, error, type: "mutation", ctx });
    return {
      status: formatted.data.httpStatus,
      json: JSON.stringify({ error: transformer.output.serialize(formatted) }),
    };
  }

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    calls: VerifyCalls,
    requestId: string,
  ): Promise<void> {
    const text = await readBodyText(req);
    if (text === null) return; // the client left: nobody to answer
    const inputs = decodeInputs(text, calls);
    if (inputs === null) {
      const read: ReadRequest = req;
      read.body = text;
      // tRPC's handler writes the answer: the id goes on the response first.
      res.setHeader(REQUEST_ID_HEADER, requestId);
      fallback(read, res);
      return answered(res);
    }
    const answers =
      inputs.length === 1
        ? [await callOne(inputs[0], req, res, requestId)]
        : await Promise.all(inputs.map((input) => callOne(input, req, res, requestId)));
    send(res, answers, calls.batch, requestId);
  }

  return (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> | null => {
    const calls = matchVerifyCalls(req);
    if (calls === null) return null;
    return answer(req, res, calls, requestId).catch((cause: unknown) => {
      // Not expected (every call's failure is an item): answered as tRPC answers a thrown error.
      if (!res.headersSent) send(res, [errorItem(cause, { requestId })], false, requestId);
    });
  };
}

/** Settles once `res` is done: answered, or its client gone. */
export function answered(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.once("close", resolve));
}

/** What publicProcedure and tRPC make of an error the verifier throws (src/trpc.ts). */
function procedureError(cause: unknown): TRPCError {
  if (cause instanceof TRPCError) return cause;
  if (isDatabaseUnavailable(cause)) {
    return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE, cause });
  }
  return new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause });
}

interface AnswerItem {
  status: number;
  /** The item as JSON text: a batch's answer is the array of its items. */
  json: string;
}

/**
 * Writes the answer: one item, or the batch's array; a batch whose statuses differ is 207. The
 * request's id is one of the literal's headers, as on REST's verify (http/fast-route.ts).
 */
function send(res: ServerResponse, answers: readonly AnswerItem[], batch: boolean, requestId: string): void {
  let status = answers[0]?.status ?? 200;
  for (const answer of answers) if (answer.status !== status) status = 207;
  const payload = batch ? `[${answers.map((answer) => answer.json).join(",")}]` : (answers[0]?.json ?? "");
  // tRPC's handler's headers on a keys.verify answer (its `vary`, our `responseMeta`'s
  // `cache-control` and JSON type), as one literal: a copied shared object costs more.
  res.writeHead(status, {
    "cache-control": "no-store",
    "content-type": "application/json",
    vary: "trpc-accept, accept",
    "content-length": Buffer.byteLength(payload),
    // REQUEST_ID_HEADER, spelled out: a computed key would make each literal a slower object.
    "x-request-id": requestId,
  });
  res.end(payload);
}
