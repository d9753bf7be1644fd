/**
 * The JSON text of a verification answer. The verifier hands out shared, frozen answers for its
 * commonest outcomes (NOT_FOUND, a plain key's VALID: see verify/verify.ts); their text is built
 * once and kept while the answer lives. Any other answer is a fresh object, serialised as is.
 * Serialising a verification was about 1 µs of a REST verification's CPU (docs/benchmarks.md).
 * `serialise` must give the same text for the same object (it runs once per shared answer).
 * @example const json = createJsonMemo(JSON.stringify); json(answer)
 */
export function createJsonMemo<T extends object>(serialise: (value: T) => string): (value: T) => string {
  const texts = new WeakMap<T, string>();
  return (value) => {
    if (!Object.isFrozen(value)) return serialise(value);
    let text = texts.get(value);
    if (text === undefined) {
      text = serialise(value);
      texts.set(value, text);
    }
    return text;
  };
}
