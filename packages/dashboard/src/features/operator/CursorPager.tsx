/** "Previous page", "Page 2", "Next page" under a list the server pages by cursor. */
export function CursorPager({
  label,
  page,
  hasNext,
  onPrevious,
  onNext,
}: {
  /** Names the navigation: "Pages of wallets". */
  label: string;
  page: number;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  if (page === 1 && !hasNext) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button" disabled={page <= 1} onClick={onPrevious}>
        Previous page
      </button>
      <span>Page {page}</span>
      <button type="button" className="button" disabled={!hasNext} onClick={onNext}>
        Next page
      </button>
    </nav>
  );
}
