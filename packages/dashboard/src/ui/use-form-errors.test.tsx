// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useId, useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { FormAlert } from "./FormAlert";
import { type FormError, type ParsedForm, useFormErrors } from "./use-form-errors";

afterEach(cleanup);

type Field = "name" | "email";
interface Input {
  name: string;
  email: string;
}

function parse(input: Input): ParsedForm<Input, Field> {
  const errors: FormError<Field>[] = [];
  if (input.name.trim() === "") errors.push({ field: "name", message: "Give it a name." });
  if (!input.email.includes("@")) errors.push({ field: "email", message: "Enter an email address." });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, input };
}

/**
 * A two-input form as the dialogs build it: "Save" checks it, then sends it (to `sent`), or, like a server
 * that says no, shows `refusal`; "Cancel" resets.
 */
function Form({ sent = [], refusal }: { sent?: Input[]; refusal?: FormError<Field>[] }) {
  const form = useFormErrors<Field>();
  const emailHint = useId();
  const [input, setInput] = useState<Input>({ name: "", email: "" });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = form.check(parse(input));
        if (checked === null) return;
        if (refusal === undefined) sent.push(checked);
        else form.show(refusal);
      }}
    >
      <label>
        <span id={form.labelId("name")}>Name</span>
        <input
          value={input.name}
          onChange={(event) => setInput({ ...input, name: event.currentTarget.value })}
          {...form.field("name")}
        />
        {form.message("name")}
      </label>
      <label>
        <span id={form.labelId("email")}>Email</span>
        <input
          value={input.email}
          onChange={(event) => setInput({ ...input, email: event.currentTarget.value })}
          {...form.field("email", emailHint)}
        />
        {form.message("email")}
        <small id={emailHint}>Where receipts go.</small>
      </label>
      <FormAlert error={form.formError} fieldErrors={form.fieldErrorCount} />
      <button type="submit">Save</button>
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

const inputs = () => ({
  name: screen.getByRole("textbox", { name: "Name" }),
  email: screen.getByRole("textbox", { name: "Email" }),
  save: screen.getByRole("button", { name: "Save" }),
});

describe("useFormErrors", () => {
  it("puts each error beside its input (aria-invalid, described by the error then the hint) and focuses the first", () => {
    render(<Form />);
    const { name, email, save } = inputs();
    expect(name.getAttribute("aria-invalid")).toBeNull();
    expect(descriptions(email)).toEqual(["Where receipts go."]);

    fireEvent.click(save);
    // Still named by the label alone; the error describes it.
    expect(screen.getByRole("textbox", { name: "Email" })).toBe(email);
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(descriptions(email)).toEqual(["Enter an email address.", "Where receipts go."]);
    expect(descriptions(name)).toEqual(["Give it a name."]);
    expect(screen.getByRole("alert").textContent).toBe("2 fields need a change.");
    expect(document.activeElement).toBe(name);
  });

  it("moves focus once per failed submit, not while the user types", () => {
    render(<Form />);
    const { name, email, save } = inputs();
    fireEvent.click(save);
    expect(document.activeElement).toBe(name);

    email.focus();
    fireEvent.change(email, { target: { value: "ada@example.com" } });
    expect(document.activeElement).toBe(email);

    fireEvent.click(save);
    expect(document.activeElement).toBe(name);
    expect(email.getAttribute("aria-invalid")).toBeNull();
    expect(screen.getByRole("alert").textContent).toBe("One field needs a change.");
  });

  it("clears the errors and hands back the input once the checks pass, focusing nothing", () => {
    const sent: Input[] = [];
    render(<Form sent={sent} />);
    const { name, email, save } = inputs();
    fireEvent.click(save);
    fireEvent.change(name, { target: { value: "Ada" } });
    fireEvent.change(email, { target: { value: "ada@example.com" } });
    save.focus();
    fireEvent.click(save);
    expect(sent).toEqual([{ name: "Ada", email: "ada@example.com" }]);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(name.getAttribute("aria-invalid")).toBeNull();
    expect(document.activeElement).toBe(save);
  });

  it("shows a refusal of the form as a whole in the alert, marking and focusing no input", () => {
    render(<Form refusal={[{ field: null, message: "Nothing changed." }]} />);
    const { name, email, save } = inputs();
    fireEvent.change(name, { target: { value: "Ada" } });
    fireEvent.change(email, { target: { value: "ada@example.com" } });
    save.focus();
    fireEvent.click(save);
    expect(screen.getByRole("alert").textContent).toBe("Nothing changed.");
    expect(name.getAttribute("aria-invalid")).toBeNull();
    expect(document.activeElement).toBe(save);
  });

  it("puts a refusal about one field beside it and focuses it", () => {
    render(<Form refusal={[{ field: "email", message: "The email is taken." }]} />);
    const { name, email, save } = inputs();
    fireEvent.change(name, { target: { value: "Ada" } });
    fireEvent.change(email, { target: { value: "ada@example.com" } });
    fireEvent.click(save);
    expect(descriptions(email)).toEqual(["The email is taken.", "Where receipts go."]);
    expect(document.activeElement).toBe(email);
  });

  it("drops every error on reset", () => {
    render(<Form />);
    const { email, save } = inputs();
    fireEvent.click(save);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(email.getAttribute("aria-invalid")).toBeNull();
    expect(descriptions(email)).toEqual(["Where receipts go."]);
  });
});
