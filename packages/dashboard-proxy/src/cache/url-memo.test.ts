import { H3 } from "h3";
import { describe, expect, it } from "vitest";
import { memoizeByUrl } from "./url-memo.js";

async function run(app: H3, path: string): Promise<string> {
  return (await app.request(path)).text();
}

describe("memoizeByUrl", () => {
  it("computes once per exact URL, keeps only what `keep` accepts, and drops the oldest past `max`", async () => {
    const computed: string[] = [];
    const memo = memoizeByUrl(
      (event) => {
        const key = event.url.pathname + event.url.search;
        computed.push(key);
        return key.includes("bad") ? { refused: key } : { ok: key };
      },
      (result) => "ok" in result,
      2,
    );
    const app = new H3().get("/**", (event) => JSON.stringify(memo(event)));
    await run(app, "/a?x=1");
    await run(app, "/a?x=1");
    await run(app, "/a?x=2"); // another query string is another URL
    await run(app, "/bad");
    await run(app, "/bad");
    expect(computed).toEqual(["/a?x=1", "/a?x=2", "/bad", "/bad"]);
    await run(app, "/b"); // third kept URL: /a?x=1, the oldest, goes
    await run(app, "/a?x=2");
    await run(app, "/a?x=1");
    expect(computed.slice(4)).toEqual(["/b", "/a?x=1"]);
  });
});
