import type { IncomingMessage, ServerResponse } from "node:http";
import { TRPCError } from "@trpc/server";
import { type ProcedureServices, readBearerToken } from "../context.js";
import type { RawRoute } from "../http/raw-route.js";
import { paymentsCsvInput } from "../schemas/operator-payments.js";
import { requireOperator } from "../trpc.js";
import { paymentRangeOf } from "./payment-range.js";
import { PAYMENT_CSV_HEADER, paymentCsvLine } from "./payments-csv.js";

/** Where the export is served. */
export const PAYMENTS_CSV_ROUTE = "GET /operator/payments.csv";

/**
 * Writes `chunk`, waiting while the client's buffer is full; false once the client has gone, so the
 * export stops reading the database for nobody.
 */
function send(res: ServerResponse, chunk: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (open: boolean) => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(open);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

function rangeOf(req: IncomingMessage) {
  const query = new URL(req.url ?? "/", "http://localhost").searchParams;
  const parsed = paymentsCsvInput.safeParse({
    from: query.get("from") ?? undefined,
    to: query.get("to") ?? undefined,
    kind: query.get("kind") ?? undefined,
  });
  if (!parsed.success) {
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: "from and to must be ISO-8601 times with an offset, and kind top_up or plan",
    });
  }
  return paymentRangeOf(parsed.data);
}

/**
 * `GET /operator/payments.csv` (docs/operator.md#payments): the settled payments of a range as RFC 4180
 * CSV, oldest first, streamed in batches read one at a time and written as the client takes them, so
 * memory stays bounded whatever the range holds. Scope `payments:read`. A failure after the first byte
 * cuts the connection, so a client never takes a truncated file for a whole one.
 */
export function createPaymentsCsvRoute(
  services: Pick<ProcedureServices, "sessions" | "operators">,
): RawRoute {
  return {
    maxBodyBytes: 0,
    async handle(req, res) {
      await requireOperator(
        { bearerToken: readBearerToken(req), sessions: services.sessions, operators: services.operators },
        "payments:read",
      );
      const range = rangeOf(req);
      const name = `keyport-payments-${range.from.toISOString().slice(0, 10)}-${range.to.toISOString().slice(0, 10)}.csv`;
      res.writeHead(200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
      });
      try {
        if (!(await send(res, PAYMENT_CSV_HEADER))) return;
        for await (const rows of services.operators.exportPayments(range)) {
          if (!(await send(res, rows.map(paymentCsvLine).join("")))) return;
        }
        res.end();
      } catch (cause) {
        res.destroy();
        throw cause;
      }
    },
  };
}
