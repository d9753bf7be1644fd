// @vitest-environment happy-dom
import { WEBHOOK_EVENT_TYPES } from "@keyport/server/schemas";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useFormErrors } from "../../ui/use-form-errors";
import { WebhookFormFields } from "./WebhookFormFields";
import {
  EMPTY_WEBHOOK_FIELDS,
  type WebhookFieldError,
  type WebhookFieldName,
  type WebhookFields,
} from "./webhook-form";

afterEach(cleanup);

let latest: WebhookFields = EMPTY_WEBHOOK_FIELDS;

/** The fields in a form whose every "Add" fails with `errors`. */
function Form({ errors = [] }: { errors?: WebhookFieldError[] }) {
  const [fields, setFields] = useState(EMPTY_WEBHOOK_FIELDS);
  const form = useFormErrors<WebhookFieldName>();
  latest = fields;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        form.show(errors);
      }}
    >
      <WebhookFormFields fields={fields} onChange={(next) => setFields(next)} form={form} />
      <button type="submit">Add</button>
    </form>
  );
}

describe("WebhookFormFields", () => {
  it("groups the events as Keys, Credits, Limits and Endpoints, and All events ticks and unticks every one", () => {
    render(<Form />);
    for (const name of ["Keys", "Credits", "Limits", "Endpoints"])
      expect(screen.getByRole("group", { name })).toBeTruthy();
    const credits = within(screen.getByRole("group", { name: "Credits" }));
    expect(credits.getAllByRole("checkbox")).toHaveLength(3);

    const all = screen.getByRole("checkbox", { name: "All events" });
    fireEvent.click(all);
    expect(latest.events).toEqual([...WEBHOOK_EVENT_TYPES]);
    // One unticked: no longer all, and the rest stay in the server's order.
    fireEvent.click(screen.getByRole("checkbox", { name: /^Credits low/ }));
    expect(screen.getByRole("checkbox", { name: "All events" })).toHaveProperty("checked", false);
    expect(latest.events).toEqual(WEBHOOK_EVENT_TYPES.filter((type) => type !== "credits.low"));
    fireEvent.click(screen.getByRole("checkbox", { name: /^Credits low/ }));
    expect(screen.getByRole("checkbox", { name: "All events" })).toHaveProperty("checked", true);
    fireEvent.click(screen.getByRole("checkbox", { name: "All events" }));
    expect(latest.events).toEqual([]);
  });

  it("marks the wrong URL, names its error and focuses it after a failed try", () => {
    render(<Form errors={[{ field: "url", message: "url must be an https URL" }]} />);
    const url = screen.getByRole("textbox", { name: "Endpoint URL" });
    expect(url.getAttribute("aria-invalid")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    expect(url.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (url.getAttribute("aria-describedby") ?? "").split(" ");
    const error = document.getElementById(describedBy[0] ?? "");
    expect(error?.textContent).toBe("url must be an https URL");
    expect(document.activeElement).toBe(url);
  });
});
