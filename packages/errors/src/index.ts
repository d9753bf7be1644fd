// @keyport/errors: the one error envelope of every Keyport service (filled in by the errors work).
export {};
