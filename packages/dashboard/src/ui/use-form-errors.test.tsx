// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useId, useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { FormAlert } from "./FormAlert";
import { type FormError, useFormErrors } from "./use-form-errors";

afterEach(cleanup);

type Field = "name" | "email";

/** A two-input form whose every "Save" fails with `errors`; "Cancel" resets, "Retry" clears. */
function Form({ errors }: { errors: FormError<Field>[] }) {
  const form = useFormErrors<Field>();
  const emailHint = useId();
  const [name, setName] = useState("");
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        form.show(errors);
      }}
    >
      <label>
        <span id={form.labelId("name")}>Name</span>
        <input
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          {...form.field("name")}
        />
        {form.message("name")}
      </label>
      <label>
        <span id={form.labelId("email")}>Email</span>
        <input {...form.field("email", emailHint)} />
        {form.message("email")}
        <small id={emailHint}>Where receipts go.</small>
      </label>
      <FormAlert error={form.formError} fieldErrors={form.fieldErrorCount} />
      <button type="submit">Save</button>
      <button type="button" onClick={form.clear}>
        Retry
      </button>
      <button type="button" onClick={form.reset}>
        Cancel
      </button>
    </form>
  );
}

/** The texts an input's aria-describedby names, in order. */
const descriptions = (input: HTMLElement) =>
  (input.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .filter((id) => id !== "")
    .map((id) => document.getElementById(id)?.textContent);

const twoWrong: FormError<Field>[] = [
  { field: "email", message: "Enter an email address." },
  { field: "name", message: "Give it a name." },
];

describe("useFormErrors", () => {
  it("puts each error beside its input (aria-invalid, described by the error then the hint) and focuses the first", () => {
    render(<Form errors={twoWrong} />);
    const name = screen.getByRole("textbox", { name: "Name" });
    const email = screen.getByRole("textbox", { name: "Email" });
    expect(name.getAttribute("aria-invalid")).toBeNull();
    expect(descriptions(email)).toEqual(["Where receipts go."]);

    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    // Named by the label alone; the error describes it.
    expect(screen.getByRole("textbox", { name: "Email" })).toBe(email);
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(descriptions(email)).toEqual(["Enter an email address.", "Where receipts go."]);
    expect(descriptions(name)).toEqual(["Give it a name."]);
    expect(screen.getByRole("alert").textContent).toBe("2 fields need a change.");
    // The first in the list of errors, as the form's checks list them.
    expect(document.activeElement).toBe(email);
  });

  it("moves focus once per failed submit, not while the user types", () => {
    render(<Form errors={twoWrong} />);
    const name = screen.getByRole("textbox", { name: "Name" });
    const email = screen.getByRole("textbox", { name: "Email" });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(document.activeElement).toBe(email);

    name.focus();
    fireEvent.change(name, { target: { value: "Ada" } });
    expect(document.activeElement).toBe(name);

    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(document.activeElement).toBe(email);
  });

  it("shows an error of the form as a whole in the alert, marking and focusing no input", () => {
    render(<Form errors={[{ field: null, message: "Nothing changed." }]} />);
    const save = screen.getByRole("button", { name: "Save" });
    save.focus();
    fireEvent.click(save);
    expect(screen.getByRole("alert").textContent).toBe("Nothing changed.");
    expect(screen.getByRole("textbox", { name: "Name" }).getAttribute("aria-invalid")).toBeNull();
    expect(document.activeElement).toBe(save);
  });

  it("drops every error on clear and on reset", () => {
    render(<Form errors={twoWrong} />);
    for (const button of ["Retry", "Cancel"]) {
      fireEvent.click(screen.getByRole("button", { name: "Save" }));
      expect(screen.getAllByText(/Give it a name\.|Enter an email address\./)).toHaveLength(2);
      fireEvent.click(screen.getByRole("button", { name: button }));
      expect(screen.queryByRole("alert")).toBeNull();
      expect(screen.getByRole("textbox", { name: "Email" }).getAttribute("aria-invalid")).toBeNull();
      expect(descriptions(screen.getByRole("textbox", { name: "Email" }))).toEqual(["Where receipts go."]);
    }
  });
});
