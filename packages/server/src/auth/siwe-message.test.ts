import { describe, expect, it } from "vitest";
import { parseDateTime, parseSiweMessage } from "./siwe-message.js";

const ADDRESS = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";

/** The message's lines joined by LF, as EIP-4361 writes them. */
const lines = (...rows: string[]) => rows.join("\n");

const HEAD = ["example.com wants you to sign in with your Ethereum account:", ADDRESS, ""];
const REQUIRED = [
  "URI: https://example.com/login",
  "Version: 1",
  "Chain ID: 1",
  "Nonce: 32891756",
  "Issued At: 2021-09-30T16:25:24Z",
];
const WITH_STATEMENT = [...HEAD, "I accept the ExampleOrg Terms of Service: https://example.com/tos", ""];
const FULL = lines(
  ...WITH_STATEMENT,
  ...REQUIRED,
  "Expiration Time: 2021-09-30T17:25:24Z",
  "Not Before: 2021-09-30T16:20:24Z",
  "Request ID: request-123",
  "Resources:",
  "- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/",
  "- https://example.com/my-web2-claim.json",
);

function parsed(text: string) {
  const result = parseSiweMessage(text);
  if (!result.ok) throw new Error(`refused at line ${result.error.line}: ${result.error.expected}`);
  return result.fields;
}

describe("parseSiweMessage accepts what the EIP-4361 grammar allows", () => {
  it("reads every field of a full message", () => {
    expect(parsed(FULL)).toEqual({
      scheme: undefined,
      domain: "example.com",
      address: ADDRESS,
      statement: "I accept the ExampleOrg Terms of Service: https://example.com/tos",
      uri: "https://example.com/login",
      uriAuthority: "example.com",
      version: "1",
      chainId: 1,
      nonce: "32891756",
      issuedAt: new Date("2021-09-30T16:25:24Z"),
      expirationTime: new Date("2021-09-30T17:25:24Z"),
      notBefore: new Date("2021-09-30T16:20:24Z"),
      requestId: "request-123",
      resources: [
        "ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/",
        "https://example.com/my-web2-claim.json",
      ],
    });
  });

  it("reads a message without statement (two empty lines) and without optional fields", () => {
    const fields = parsed(lines(...HEAD, "", ...REQUIRED));
    expect(fields.statement).toBeUndefined();
    expect(fields).toMatchObject({ expirationTime: undefined, notBefore: undefined, requestId: undefined });
    expect(fields.resources).toBeUndefined();
  });

  it("reads an explicit scheme and a port before the domain", () => {
    const fields = parsed(
      lines(
        "https://example.com:3388 wants you to sign in with your Ethereum account:",
        ...HEAD.slice(1),
        "",
        ...REQUIRED,
      ),
    );
    expect(fields).toMatchObject({ scheme: "https", domain: "example.com:3388" });
  });

  it("reads each optional field alone, an empty request id and an empty resource list", () => {
    expect(
      parsed(lines(...WITH_STATEMENT, ...REQUIRED, "Not Before: 2021-09-30T16:20:24Z")).notBefore,
    ).toEqual(new Date("2021-09-30T16:20:24Z"));
    expect(parsed(lines(...WITH_STATEMENT, ...REQUIRED, "Request ID: ")).requestId).toBe("");
    expect(parsed(lines(...WITH_STATEMENT, ...REQUIRED, "Resources:")).resources).toEqual([]);
  });

  it("reads an empty statement (three empty lines) as the ABNF allows", () => {
    expect(parsed(lines(...HEAD, "", "", ...REQUIRED)).statement).toBe("");
  });

  it("reads the URI's authority for IPv6 hosts, userinfo and URIs without one", () => {
    const uri = (value: string) =>
      parsed(lines(...HEAD, "", `URI: ${value}`, ...REQUIRED.slice(1))).uriAuthority;
    expect(uri("http://[::1]:3001/")).toBe("[::1]:3001");
    expect(uri("https://user@example.com")).toBe("user@example.com");
    expect(uri("did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK")).toBeUndefined();
  });

  it.each([
    ["2026-11-23T20:03:36+05:30", "2026-11-23T14:33:36.000Z"],
    ["2026-11-23T20:03:36-08:00", "2026-11-24T04:03:36.000Z"],
    ["2026-11-23T20:03:36.123456789Z", "2026-11-23T20:03:36.123Z"],
    ["2026-11-23T20:03:36.5-00:00", "2026-11-23T20:03:36.500Z"],
    ["2026-11-23t20:03:36z", "2026-11-23T20:03:36.000Z"],
    ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
    ["2016-12-31T23:59:60Z", "2017-01-01T00:00:00.000Z"],
    ["0099-01-01T00:00:00Z", "0099-01-01T00:00:00.000Z"],
  ])("reads the RFC 3339 date-time %s", (value, iso) => {
    expect(parseDateTime(value)?.toISOString()).toBe(iso);
    const fields = parsed(lines(...HEAD, "", ...REQUIRED.slice(0, 4), `Issued At: ${value}`));
    expect(fields.issuedAt.toISOString()).toBe(iso);
  });
});

describe("parseSiweMessage refuses anything else", () => {
  const issued = "Issued At: 2021-09-30T16:25:24Z";
  const refusals: [string, string][] = [
    [
      "a field out of order",
      lines(...HEAD, "", ...REQUIRED, "Request ID: 1", "Expiration Time: 2021-09-30T17:25:24Z"),
    ],
    [
      "a trailing Not Before after Resources",
      lines(...HEAD, "", ...REQUIRED, "Resources:", "Not Before: 2031-01-01T00:00:00Z"),
    ],
    [
      "a repeated field",
      lines(
        ...HEAD,
        "",
        ...REQUIRED,
        "Expiration Time: 2021-09-30T17:25:24Z",
        "Expiration Time: 2031-09-30T17:25:24Z",
      ),
    ],
    ["a second Chain ID block", lines(...HEAD, "", ...REQUIRED, "Chain ID: 8453")],
    ["a junk line at the end", lines(...HEAD, "", ...REQUIRED, "junk")],
    ["a junk line between fields", lines(...HEAD, "", ...REQUIRED.slice(0, 2), "junk", ...REQUIRED.slice(2))],
    ["a trailing newline", `${lines(...HEAD, "", ...REQUIRED)}\n`],
    ["CRLF line ends", lines(...HEAD, "", ...REQUIRED).replaceAll("\n", "\r\n")],
    ["text before the header", lines("hello", ...HEAD, "", ...REQUIRED)],
    ["a missing field", lines(...HEAD, "", ...REQUIRED.filter((row) => !row.startsWith("Nonce")))],
    [
      "a lower-case field name",
      lines(...HEAD, "", ...REQUIRED.slice(0, 4), issued.replace("Issued At", "issued at")),
    ],
    ["a statement with a line break", lines(...HEAD, "one", "two", "", ...REQUIRED)],
    ["a statement with characters outside RFC 3986", lines(...HEAD, 'Say "hi" <3', "", ...REQUIRED)],
    ["a statement without its empty line", lines(...HEAD, "Sign in", ...REQUIRED)],
    [
      "a short nonce",
      lines(...HEAD, "", ...REQUIRED.map((row) => (row.startsWith("Nonce") ? "Nonce: abc1234" : row))),
    ],
    [
      "a non-alphanumeric nonce",
      lines(...HEAD, "", ...REQUIRED.map((row) => (row.startsWith("Nonce") ? "Nonce: abcd-12345" : row))),
    ],
    [
      "a chain id that is not digits",
      lines(...HEAD, "", ...REQUIRED.map((row) => (row.startsWith("Chain") ? "Chain ID: 0x1" : row))),
    ],
    ["an address that is not 40 hex digits", lines(HEAD[0] ?? "", `${ADDRESS}0`, "", "", ...REQUIRED)],
    ["a URI that is not RFC 3986", lines(...HEAD, "", "URI: https://exa mple.com/", ...REQUIRED.slice(1))],
    ["a resource that is not a URI", lines(...HEAD, "", ...REQUIRED, "Resources:", "- not a uri")],
    [
      "a domain with a path",
      lines(
        "example.com/x wants you to sign in with your Ethereum account:",
        ...HEAD.slice(1),
        "",
        ...REQUIRED,
      ),
    ],
  ];
  it.each(refusals)("refuses %s", (_, text) => {
    expect(parseSiweMessage(text).ok).toBe(false);
  });

  it.each([
    "2021-09-30 16:25:24Z",
    "2021-09-30T16:25Z",
    "2021-09-30T16:25:24",
    "2021-09-30T16:25:24+0530",
    "2021-02-29T16:25:24Z",
    "2021-13-01T16:25:24Z",
    "2021-09-30T24:00:00Z",
    "2021-09-30T16:25:24+24:00",
    "2021-09-30T16:25:24.Z",
    "Thu, 30 Sep 2021 16:25:24 GMT",
  ])("refuses the date-time %s", (value) => {
    expect(parseDateTime(value)).toBeUndefined();
    expect(parseSiweMessage(lines(...HEAD, "", ...REQUIRED.slice(0, 4), `Issued At: ${value}`)).ok).toBe(
      false,
    );
  });

  it("names the first line that does not fit", () => {
    const text = lines(...HEAD, "", ...REQUIRED, "Request ID: 1", "Expiration Time: 2021-09-30T17:25:24Z");
    expect(parseSiweMessage(text)).toEqual({
      ok: false,
      error: { line: 11, expected: "the end of the message" },
    });
  });
});
