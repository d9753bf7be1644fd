import type { H3EventContext } from "h3";
import { describe, expectTypeOf, it } from "vitest";
import type { KeyportContext } from "../src/h3.js";

describe("h3's event.context", () => {
  it("holds keyport() 's verification", () => {
    expectTypeOf<H3EventContext["keyport"]>().toEqualTypeOf<KeyportContext | undefined>();
  });
});
