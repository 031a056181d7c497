// Text that must fit its box whole — a tournament's name on the board, an address under a QR
// code — shrinks instead of breaking inside a word: fitText() takes the largest font, from the
// style sheet's size down to `min` times it, at which the text takes at most `lines` lines and
// no word is wider than the box. Whatever is still too long at the smallest size is cut by the
// style sheet ("…", line-clamp). Words break only where the text allows it (spaces; <wbr>).
//
//   fitText(h1, { lines: 3, min: 0.45 });
//   refitOnResize(h1, () => fitText(h1, …));  // again when the box's width changes

// The element's class while it is measured: the style sheet lifts its clamp for that moment.
const MEASURING = "fit-text-measuring";

export function fitText(element, { lines = 2, min = 0.5 } = {}) {
  element.style.fontSize = "";
  element.classList.add(MEASURING);
  const full = parseFloat(getComputedStyle(element).fontSize);
  const fits = (size) => {
    element.style.fontSize = `${size}px`;
    const lineHeight = parseFloat(getComputedStyle(element).lineHeight) || size * 1.2;
    return element.scrollWidth <= element.clientWidth + 0.5 && element.scrollHeight <= lines * lineHeight + 1;
  };
  let size = full;
  if (!fits(full)) {
    let low = full * min;
    let high = full;
    for (let i = 0; i < 8; i++) {
      const middle = (low + high) / 2;
      if (fits(middle)) low = middle;
      else high = middle;
    }
    size = low;
  }
  element.style.fontSize = `${size}px`;
  element.classList.remove(MEASURING);
  return size;
}

// Calls `fit` whenever `element`'s width changes (its own font changes only its height).
export function refitOnResize(element, fit) {
  let width = null;
  new ResizeObserver(() => {
    const now = element.clientWidth;
    if (now === width) return;
    width = now;
    fit();
  }).observe(element);
}

// `text` with a line-break opportunity (<wbr>) after each "/" and "-": an address breaks
// between its parts, never inside a host name's number or its port.
export function breakableAddress(document, text) {
  const parts = text.split(/(?<=[/-])/);
  return parts.flatMap((part, i) => (i < parts.length - 1 ? [document.createTextNode(part), document.createElement("wbr")] : [document.createTextNode(part)]));
}
