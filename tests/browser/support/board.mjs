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
