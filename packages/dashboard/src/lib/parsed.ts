/** What a form parser returns: the value to send, or what is wrong, in words for the user. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
