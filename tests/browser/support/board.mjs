// What the tests read off the venue board (/t/{id}/board).

// The board's rows as text, without the rank movement marks (▲ and its spoken "up from 3").
export async function boardRows(page) {
  return page.$$eval("#standings tbody tr", (trs) =>
    trs.map((tr) =>
      [...tr.cells].map((td) => {
        const copy = td.cloneNode(true);
        for (const mark of copy.querySelectorAll(".movement, .visually-hidden")) mark.remove();
        return copy.textContent.trim();
      }),
    ),
  );
}

// Waits until the board has taken in the live feed up to `seq` (its body's data-seq, board.js):
// whatever the events up to it do to the board is shown by then, so what they did not do can be
// asserted.
export async function boardHasSeen(page, seq) {
  await page.waitForFunction((at) => Number(document.body.dataset.seq) >= at, seq);
}
