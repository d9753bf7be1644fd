/**
 * `work`'s result when it settles before `deadline` (epoch ms), else `onTimeout()`'s at the
 * deadline. `work` goes on either way; an error it throws after the deadline goes to `onLateError`,
 * so no promise is left unobserved.
 * @example await raceDeadline(pay(), Date.now() + 60_000, () => ({ kind: "unavailable" }), log)
 */
export function raceDeadline<T>(
  work: Promise<T>,
  deadline: number,
  onTimeout: () => T,
  onLateError: (error: unknown) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let answered = false;
    const timer = setTimeout(
      () => {
        answered = true;
        resolve(onTimeout());
      },
      Math.max(0, deadline - Date.now()),
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        if (!answered) resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (answered) onLateError(error);
        else reject(error);
      },
    );
  });
}
