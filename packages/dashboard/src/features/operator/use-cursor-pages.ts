import { useState } from "react";

/**
 * Cursor paging for a list the server pages by cursor: the cursors of the pages before this one, kept
 * for the list as `key` names it (a new search or sort starts again at page 1).
 */
export function useCursorPages(key: string) {
  const [state, setState] = useState<{ key: string; cursors: (string | undefined)[] }>({
    key,
    cursors: [undefined],
  });
  const cursors = state.key === key ? state.cursors : [undefined];
  const page = cursors.length;
  return {
    /** 1 for the first page. */
    page,
    /** The cursor to ask this page with (undefined: the first). */
    cursor: cursors[cursors.length - 1],
    next(nextCursor: string) {
      setState({ key, cursors: [...cursors, nextCursor] });
    },
    previous() {
      setState({ key, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors });
    },
  };
}
