// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";

afterEach(cleanup);

describe("Markdown", () => {
  it("shows an agent's HTML as text and drops javascript: links", () => {
    const answer =
      'Look: <img src=x onerror="alert(1)"> and [x](javascript:alert(1)) or [y](JaVa\tScRiPt:alert(2))';
    const { container } = render(<Markdown text={answer} />);
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("[onerror]")).toBeNull();
    expect(container.querySelectorAll("a")).toHaveLength(0);
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.textContent).toContain("x");
  });

  it("keeps http(s) and mailto links, opening outside the page", () => {
    const { container } = render(
      <Markdown
        text={
          "[docs](https://example.com/a?b=1) <http://example.org> [mail](mailto:a@example.com) [rel](/keys)"
        }
      />,
    );
    const hrefs = [...container.querySelectorAll("a")].map((anchor) => anchor.getAttribute("href"));
    expect(hrefs).toEqual(["https://example.com/a?b=1", "http://example.org/", "mailto:a@example.com"]);
    expect(container.querySelector("a")?.getAttribute("rel")).toContain("noopener");
  });

  it("renders images as their alt text, never as an img", () => {
    const { container } = render(<Markdown text="![chart](https://example.com/x.png)" />);
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toContain("[image: chart]");
  });

  it("renders headings, lists, quotes, code and emphasis", () => {
    const text = [
      "# Title",
      "Some **bold** and *italic* and `code <b>`.",
      "",
      "- one",
      "- two",
      "1. first",
      "> quoted",
      "```",
      "<script>alert(1)</script>",
      "```",
    ].join("\n");
    const { container } = render(<Markdown text={text} />);
    expect(container.querySelector("h3")?.textContent).toBe("Title");
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelector("em")?.textContent).toBe("italic");
    expect(container.querySelector("p code")?.textContent).toBe("code <b>");
    expect(container.querySelectorAll("ul li")).toHaveLength(2);
    expect(container.querySelectorAll("ol li")).toHaveLength(1);
    expect(container.querySelector("blockquote")?.textContent).toBe("quoted");
    expect(container.querySelector("pre code")?.textContent).toBe("<script>alert(1)</script>");
    expect(container.querySelector("script")).toBeNull();
  });

  it("leaves snake_case words alone", () => {
    const { container } = render(<Markdown text="call get_usage_stats now" />);
    expect(container.querySelector("em")).toBeNull();
    expect(container.textContent).toBe("call get_usage_stats now");
  });
});
