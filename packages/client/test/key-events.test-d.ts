import { describe, expectTypeOf, it } from "vitest";
import type { KeyEvent, KeyportClient, RouterInputs, RouterOutputs } from "../src/index.js";

declare const keyport: KeyportClient;

describe("audit event types", () => {
  it("types events.list from the server's router, not any", () => {
    expectTypeOf<KeyEvent>().not.toBeAny();
    expectTypeOf<RouterOutputs["events"]["list"]["events"]>().toEqualTypeOf<KeyEvent[]>();
    expectTypeOf<RouterOutputs["events"]["list"]["nextCursor"]>().toEqualTypeOf<string | null>();
    expectTypeOf<KeyEvent["id"]>().toEqualTypeOf<string>();
    expectTypeOf<KeyEvent["keyId"]>().toEqualTypeOf<string | null>();
    expectTypeOf<KeyEvent["at"]>().toEqualTypeOf<Date>();
    expectTypeOf<KeyEvent["action"]>().toEqualTypeOf<
      | "key.created"
      | "key.updated"
      | "key.rolled"
      | "key.revoked"
      | "key.leaked"
      | "session.created"
      | "session.ended"
      | "limits.updated"
      | "key.topped_up"
      | "webhook.created"
      | "webhook.updated"
      | "webhook.deleted"
      | "webhook.disabled"
      | "wallet.suspended"
      | "wallet.unsuspended"
      | "wallet.plan_changed"
    >();
    expectTypeOf<KeyEvent["changes"]>().toEqualTypeOf<Record<string, unknown>>();
  });

  it("takes a wallet, and optionally limit, cursor, keyId and action", () => {
    expectTypeOf<RouterInputs["events"]["list"]>().toEqualTypeOf<{
      wallet: string;
      limit?: number | undefined;
      cursor?: string | undefined;
      keyId?: string | undefined;
      action?: KeyEvent["action"] | undefined;
    }>();
    expectTypeOf(keyport.events.list.query).parameter(0).toEqualTypeOf<RouterInputs["events"]["list"]>();
  });
});
