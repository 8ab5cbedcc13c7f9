// Remembers, for each page reached by a cursor, the page before it, so "Previous" works without dumps.

const previous = new Map();

/** Record that the page at `nextHref` was reached from `currentHref`. */
export function remember(nextHref, currentHref) {
  previous.set(nextHref, currentHref);
}

/** Return the link of the page before `href` (the first page when it was opened from a shared URL). */
export function previousOf(href, firstHref) {
  return previous.get(href) || firstHref;
}
