// The venue board's pages of standings, as pure arithmetic (no DOM: node tests it): which whole
// rows make each page, how long each page stays, and what the page line says.
//
//   const pages = paginate([88, 88, 132, 88], 300);   // [{first: 0, last: 2}, {first: 3, last: 3}]
//   pageSeconds(pages[1], fullRows(pages), 10);        // a page of 1 row of 3: 10 × 1/3 s, at least 3

// Splits rows of the given heights (pixels, in order) into pages of whole rows whose heights add
// up to at most `available`: [{first, last}] (row indexes, inclusive). Never half a row: a row
// that does not fit whole starts the next page (one taller than a whole page gets a page of its
// own). No rows: no pages.
export function paginate(heights, available) {
  const pages = [];
  let first = 0;
  let used = 0;
  heights.forEach((height, i) => {
    if (i > first && used + height > available) {
      pages.push({ first, last: i - 1 });
      first = i;
      used = 0;
    }
    used += height;
  });
  if (heights.length > 0) pages.push({ first, last: heights.length - 1 });
  return pages;
}

export const rowsOf = (page) => page.last - page.first + 1;

// The rows of the fullest page: a page of that many rows stays the whole `seconds`.
export function fullRows(pages) {
  return pages.reduce((most, page) => Math.max(most, rowsOf(page)), 0);
}

// How long `page` stays, in seconds: in proportion to its rows (a last page of 3 rows is read
// faster than one of 12), a full page `seconds`, never less than `minimum` (nor than `seconds`
// when that is shorter still).
export function pageSeconds(page, full, seconds, minimum = 3) {
  const share = full > 0 ? rowsOf(page) / full : 1;
  return Math.max(Math.min(minimum, seconds), seconds * share);
}

// The page line's numbers: places first–last of total (1-based), e.g. {first: 9, last: 16, total: 24}.
export function placesOf(page, total) {
  return { first: page.first + 1, last: page.last + 1, total };
}
