import { describe, expect, it } from "vitest";
import { probablySignedIn } from "./session-api";

describe("probablySignedIn", () => {
  it("reads the proxy's marker cookie among others, and nothing else as signed in", () => {
    expect(probablySignedIn("wagmi=x; keyport_signed_in=1; theme=dark")).toBe(true);
    expect(probablySignedIn("keyport_signed_in=1")).toBe(true);
    expect(probablySignedIn("")).toBe(false);
    expect(probablySignedIn("keyport_signed_in=")).toBe(false);
    expect(probablySignedIn("not_keyport_signed_in=1")).toBe(false);
  });
});
